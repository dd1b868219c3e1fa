import type { MyVoice, VoiceRecording } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { API, fillPath } from '@shared/contract/paths';
import { apiRequest, fromQuery, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';

const OWN_VOICE_KEY = ['own-voice'];

export const ownVoiceQuery = () =>
  queryOptions({
    queryKey: OWN_VOICE_KEY,
    // The recordings' signed URLs expire: fetched again before they do, like own music's.
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: (context) => apiRequest<MyVoice>(API.myVoice, fromQuery(context)),
  });

/** Keeps a take of `text` (replacing the one it had). */
export function uploadVoiceTake(text: string, wav: Blob) {
  const body = new FormData();
  body.append('text', text);
  body.append('audio_file', wav, 'take.wav');
  return apiRequest<VoiceRecording>(API.myVoice, { method: 'POST', body });
}

export const deleteVoiceRecording = (id: number) =>
  apiRequest(fillPath(API.myVoiceRecording, { id }), { method: 'DELETE' });

/** Runs a change of one's recordings, says how it went, and reloads them. */
export const useOwnVoiceChange = () => useChange(OWN_VOICE_KEY);
