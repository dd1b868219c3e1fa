import type { OwnMusic, OwnTrack } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { API, fillPath } from '@shared/contract/paths';
import { apiRequest, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';

const OWN_MUSIC_KEY = ['own-music'];

export const ownMusicQuery = () =>
  queryOptions({
    queryKey: OWN_MUSIC_KEY,
    // The tracks' signed URLs expire: fetched again before they do, like the libraries'.
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    // Back on the tab, a track removed meanwhile (elsewhere, or in another tab) stops (use-stop-gone-tracks).
    refetchOnWindowFocus: true,
    queryFn: ({ signal }) => apiRequest<OwnMusic>(API.myMusic, { signal }),
  });

export function uploadOwnTrack(file: File, name: string, onUploadProgress: (fraction: number) => void) {
  const body = new FormData();
  if (name.trim()) body.append('name', name.trim());
  body.append('audio_file', file);
  return apiRequest<OwnTrack>(API.myMusic, { method: 'POST', body, onUploadProgress });
}

export const deleteOwnTrack = (id: number) => apiRequest(fillPath(API.myMusicTrack, { id }), { method: 'DELETE' });

/** Runs a change of one's own music, says how it went, and reloads it. */
export const useOwnMusicChange = () => useChange(OWN_MUSIC_KEY);
