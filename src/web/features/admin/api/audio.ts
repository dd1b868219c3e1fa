import { queryOptions } from '@tanstack/react-query';
import type { AdminAudioItem, AudioItemUpdate, AudioKind } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest, fromQuery, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';
import { adminKeys } from './keys';

export const adminAudioQuery = (kind: AudioKind) =>
  queryOptions({
    queryKey: adminKeys.audio(kind),
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    // Read again whenever the tab shows again, as the library's messages are: what another tab or staff member wrote
    // is there before it is edited here.
    refetchOnWindowFocus: 'always',
    queryFn: (context) => apiRequest<AdminAudioItem[]>(adminPath(ADMIN_API.audioItems, { kind }), fromQuery(context)),
  });

export const uploadAudioItem = (kind: AudioKind, form: FormData, onUploadProgress: (fraction: number) => void) =>
  apiRequest<AdminAudioItem>(adminPath(ADMIN_API.audioItems, { kind }), {
    method: 'POST',
    body: form,
    onUploadProgress,
  });

export const updateAudioItem = (kind: AudioKind, id: number, body: AudioItemUpdate) =>
  apiRequest<AdminAudioItem>(adminPath(ADMIN_API.audioItem, { kind, id }), {
    method: 'PATCH',
    body,
  });

export const deleteAudioItem = (kind: AudioKind, id: number) =>
  apiRequest(adminPath(ADMIN_API.audioItem, { kind, id }), { method: 'DELETE' });

/** Runs a change of one audio library and reloads its list. */
export const useAudioChange = (kind: AudioKind) => useChange(adminKeys.audio(kind));
