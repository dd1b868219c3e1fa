import type { OwnTrack } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';
import { OWN_MUSIC_KEY } from '@web/lib/audio/track-lists';
import { useChange } from '@web/lib/change';

export function uploadOwnTrack(file: File, name: string, onUploadProgress: (fraction: number) => void) {
  const body = new FormData();
  if (name.trim()) body.append('name', name.trim());
  body.append('audio_file', file);
  return apiRequest<OwnTrack>(API.myMusic, { method: 'POST', body, onUploadProgress });
}

export const deleteOwnTrack = (id: number) => apiRequest(fillPath(API.myMusicTrack, { id }), { method: 'DELETE' });

/** Runs a change of one's own music, says how it went, and reloads it. */
export const useOwnMusicChange = () => useChange(OWN_MUSIC_KEY);
