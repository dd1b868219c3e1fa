import { queryOptions } from '@tanstack/react-query';
import { API, audioItemListSchema, type AudioKind } from '@shared/contract';
import { apiRequest, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';

export const AUDIO_LISTS: ReadonlyArray<{ kind: AudioKind; title: string; path: string; loadError: string }> = [
  {
    kind: 'selfeggio',
    title: 'Solfeggio',
    path: API.selfeggio,
    loadError: 'There was an error fetching selfeggio meditations!',
  },
  { kind: 'bonus', title: 'Bonus', path: API.bonusAudio, loadError: 'There was an error fetching bonus audios!' },
  { kind: 'custom', title: 'Custom', path: API.customAudio, loadError: 'There was an error fetching custom audios!' },
];

export const audioListQuery = (kind: AudioKind, path: string) =>
  queryOptions({
    queryKey: ['audio', kind],
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: ({ signal }) => apiRequest(path, { schema: audioItemListSchema, signal }),
  });
