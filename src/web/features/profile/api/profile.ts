import { queryOptions } from '@tanstack/react-query';
import { API, profileSchema } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const profileQuery = () =>
  queryOptions({
    queryKey: ['profile'],
    queryFn: ({ signal }) => apiRequest(API.profile, { schema: profileSchema, signal }),
  });
