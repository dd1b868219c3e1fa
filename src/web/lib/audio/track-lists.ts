import { queryOptions } from '@tanstack/react-query';
import type { AudioItem, AudioKind, OwnMusic } from '@shared/contract';
import { AUDIO_LIBRARIES } from '@shared/contract/portal-plain';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';

// The lists the engine's tracks come from, read alike by /music, a saved sound, a program day and the
// portal's watch for a track that is gone (use-stop-gone-tracks.ts).

/** A library's tracks. Back on the tab, a track removed meanwhile (elsewhere, or in another tab) stops. */
export const libraryListQuery = (kind: AudioKind) =>
  queryOptions({
    queryKey: ['audio', kind],
    // The tracks' signed URLs expire: fetched again before they do.
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    refetchOnWindowFocus: true,
    queryFn: (context) => apiRequest<AudioItem[]>(AUDIO_LIBRARIES[kind].path, fromQuery(context)),
  });

export const OWN_MUSIC_KEY = ['own-music'];

/** One's own music, fetched again like a library's. */
export const ownMusicQuery = () =>
  queryOptions({
    queryKey: OWN_MUSIC_KEY,
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    refetchOnWindowFocus: true,
    queryFn: (context) => apiRequest<OwnMusic>(API.myMusic, fromQuery(context)),
  });
