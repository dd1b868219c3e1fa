import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIO_LISTS, audioLibraryQuery } from '../api/audio-lists';
import { useTrackPlayer } from '../hooks/use-track-player';
import { AudioList } from './audio-list';
import { MyMusic } from './my-music';

/**
 * Whether the seeded library is still being prepared; while it is, and once more when it is ready,
 * each answer reads the lists anew, so their tracks appear as they are built.
 */
function useLibraryPreparing(): boolean {
  const queryClient = useQueryClient();
  const state = useQuery(audioLibraryQuery());
  const preparing = state.data?.preparing ?? false;
  const wasPreparing = useRef(false);
  useEffect(() => {
    if (wasPreparing.current) void queryClient.invalidateQueries({ queryKey: ['audio'] });
    wasPreparing.current = preparing;
  }, [state.dataUpdatedAt, preparing, queryClient]);
  return preparing;
}

/** The three audio libraries and one's own music on the sound engine's track layer: one track at a time, looping. */
export function MusicLibrary() {
  const player = useTrackPlayer();
  const preparing = useLibraryPreparing();
  return (
    <div className="flex flex-col gap-10">
      {AUDIO_LISTS.map((list) => (
        <AudioList
          key={list.kind}
          {...list}
          preparing={preparing}
          statusOf={player.statusOf}
          onToggle={player.toggle}
        />
      ))}
      <MyMusic statusOf={player.statusOf} onToggle={player.toggle} />
    </div>
  );
}
