import { queryOptions } from '@tanstack/react-query';
import type { AudioKind, AudioLibraryState } from '@shared/contract';
import { AUDIO_KINDS, AUDIO_LIBRARIES } from '@shared/contract/portal-plain';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery } from '@web/lib/api-client';

const LOAD_ERRORS: Record<AudioKind, string> = {
  selfeggio: 'There was an error fetching selfeggio meditations!',
  bonus: 'There was an error fetching bonus audios!',
  custom: 'There was an error fetching custom audios!',
};

export const AUDIO_LISTS = AUDIO_KINDS.map((kind) => ({
  kind,
  ...AUDIO_LIBRARIES[kind],
  loadError: LOAD_ERRORS[kind],
}));

/** How often, while the seeded library is being prepared, the page asks again (and reads the lists anew). */
export const LIBRARY_PREPARING_POLL_MS = 5_000;

/** Whether the seeded library is still being prepared (the first start, about a minute): asked again until it is not. */
export const audioLibraryQuery = () =>
  queryOptions({
    queryKey: ['audio-library'],
    queryFn: (context): Promise<AudioLibraryState> => apiRequest(API.audioLibrary, fromQuery(context)),
    refetchInterval: (query) => (query.state.data?.preparing ? LIBRARY_PREPARING_POLL_MS : false),
  });
