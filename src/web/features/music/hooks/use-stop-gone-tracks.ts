import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { AudioItem, OwnMusic } from '@shared/contract';
import { stopGoneTrack } from '@web/lib/audio/gone-track';

/**
 * While /music is open, each fresh list of a library (`['audio', kind]`) or of one's own music
 * (`['own-music']`), fetched on focus, on its interval or by any screen, stops the track that plays
 * from memory when the list no longer holds it, and says so once (docs/product/screens.md#music):
 * staff removed it, or the person deleted it in another tab.
 */
export function useStopGoneTracks() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        const [name, kind] = event.query.queryKey as readonly unknown[];
        const data = event.action.data;
        const told =
          name === 'audio' && typeof kind === 'string' && Array.isArray(data)
            ? stopGoneTrack(
                kind,
                (data as AudioItem[]).map((item) => item.id),
              )
            : name === 'own-music' && data
              ? stopGoneTrack(
                  'own',
                  (data as OwnMusic).tracks.map((track) => track.id),
                )
              : null;
        if (told) toast.info(told);
      }),
    [queryClient],
  );
}
