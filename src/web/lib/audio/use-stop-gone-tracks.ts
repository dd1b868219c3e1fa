import { useEffect, useSyncExternalStore } from 'react';
import { QueryObserver, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { AudioItem, AudioKind, OwnMusic } from '@shared/contract';
import { AUDIO_KINDS } from '@shared/contract/portal-plain';
import { soundEngine } from './app-engine';
import { stopGoneTrack } from './gone-track';
import { libraryListQuery, ownMusicQuery } from './track-lists';

/** The list the track playing comes from (a library's kind, or 'own'), as its engine key names it; null without one. */
function playingTrackList(): AudioKind | 'own' | null {
  const playing = soundEngine.getState().layers.find((layer) => layer.id === 'track')?.source;
  const list = playing?.kind === 'track' ? playing.key.split(':')[0] : null;
  return list === 'own' || AUDIO_KINDS.includes(list as AudioKind) ? (list as AudioKind | 'own') : null;
}

/**
 * Wherever a track plays in the portal, it stops once a fresh list of a library (`['audio', kind]`) or of
 * one's own music (`['own-music']`) no longer holds it, and a toast says so once
 * (docs/product/screens.md#mini-player): staff removed it, or the person deleted it in another tab. Any
 * screen's fetch of a list counts; while a track plays, its own list is also fetched as /music fetches it
 * (back on the tab, and every hour), and nothing is fetched while none plays.
 */
export function useStopGoneTracks() {
  const queryClient = useQueryClient();
  const list = useSyncExternalStore(soundEngine.subscribe, playingTrackList);

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

  useEffect(() => {
    if (list === null) return;
    // The list already read (by /music, or as the sound started) is kept, not asked again at once.
    const observer =
      list === 'own'
        ? new QueryObserver(queryClient, { ...ownMusicQuery(), refetchOnMount: false })
        : new QueryObserver(queryClient, { ...libraryListQuery(list), refetchOnMount: false });
    return observer.subscribe(() => undefined);
  }, [queryClient, list]);
}
