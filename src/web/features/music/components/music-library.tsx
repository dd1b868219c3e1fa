import { AUDIO_LISTS } from '../api/audio-lists';
import { useStopGoneTracks } from '../hooks/use-stop-gone-tracks';
import { useTrackPlayer } from '../hooks/use-track-player';
import { AudioList } from './audio-list';
import { MyMusic } from './my-music';

/** The three audio libraries and one's own music on the sound engine's track layer: one track at a time, looping. */
export function MusicLibrary() {
  const player = useTrackPlayer();
  useStopGoneTracks();
  return (
    <div className="flex flex-col gap-10">
      {AUDIO_LISTS.map((list) => (
        <AudioList key={list.kind} {...list} statusOf={player.statusOf} onToggle={player.toggle} />
      ))}
      <MyMusic statusOf={player.statusOf} onToggle={player.toggle} />
    </div>
  );
}
