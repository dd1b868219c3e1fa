import { queryOptions } from '@tanstack/react-query';
import { ADMIN_API, adminApplicationListSchema, adminApplicationSchema, adminPath } from '@shared/contract';
import { apiRequest, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { uploadWithProgress } from './upload';

export const adminApplicationsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'applications'],
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: ({ signal }) => apiRequest(ADMIN_API.applications, { schema: adminApplicationListSchema, signal }),
  });

export const uploadApplication = (form: FormData, onProgress: (fraction: number) => void) =>
  uploadWithProgress(ADMIN_API.applications, form, adminApplicationSchema, onProgress);

export const deleteApplication = (id: number) =>
  apiRequest(adminPath(ADMIN_API.application, { id }), { method: 'DELETE' });
