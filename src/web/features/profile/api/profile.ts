import { queryOptions } from '@tanstack/react-query';
import { API, profileSchema } from '@shared/contract';
import { apiRequest, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';

export const profileQuery = () =>
  queryOptions({
    queryKey: ['profile'],
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: ({ signal }) => apiRequest(API.profile, { schema: profileSchema, signal }),
  });
