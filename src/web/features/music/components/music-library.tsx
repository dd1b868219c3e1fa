import { AUDIO_LISTS } from '../api/audio-lists';
import { useAudioPlayer, type AudioElement } from '../hooks/use-audio-player';
import { AudioList } from './audio-list';

/** The three audio libraries sharing one player. */
export function MusicLibrary({ createAudio }: { createAudio?: () => AudioElement }) {
  const { playback, toggle } = useAudioPlayer(createAudio);
  return (
    <div className="flex flex-col gap-10">
      {AUDIO_LISTS.map((list) => (
        <AudioList key={list.kind} {...list} playback={playback} onToggle={toggle} />
      ))}
    </div>
  );
}
