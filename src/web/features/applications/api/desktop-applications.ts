import { queryOptions } from '@tanstack/react-query';
import { API, desktopApplicationListSchema } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const desktopApplicationsQuery = () =>
  queryOptions({
    queryKey: ['desktop-applications'],
    queryFn: ({ signal }) => apiRequest(API.desktopExecutables, { schema: desktopApplicationListSchema, signal }),
  });
