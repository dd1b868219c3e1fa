import type { DesktopApplication } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';

export const desktopApplicationsQuery = () =>
  queryOptions({
    queryKey: ['desktop-applications'],
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: (context) => apiRequest<DesktopApplication[]>(API.desktopExecutables, fromQuery(context)),
  });
