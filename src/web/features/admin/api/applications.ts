import type { AdminApplication } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest, fromQuery, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';
import { adminKeys } from './keys';

export const adminApplicationsQuery = () =>
  queryOptions({
    queryKey: adminKeys.applications,
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: (context) => apiRequest<AdminApplication[]>(ADMIN_API.applications, fromQuery(context)),
  });

export const uploadApplication = (form: FormData, onUploadProgress: (fraction: number) => void) =>
  apiRequest<AdminApplication>(ADMIN_API.applications, {
    method: 'POST',
    body: form,
    onUploadProgress,
  });

export const deleteApplication = (id: number) =>
  apiRequest(adminPath(ADMIN_API.application, { id }), { method: 'DELETE' });

/** Runs a change of the installers and reloads their list. */
export const useApplicationsChange = () => useChange(adminKeys.applications);
