import type { AdminJob, AdminJobList } from '@shared/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { adminKeys } from './keys';

/** Counts by status, and the jobs that failed (waiting for a retry) or used every attempt. */
export const adminJobsQuery = () =>
  queryOptions({
    queryKey: adminKeys.jobs,
    queryFn: (context) => apiRequest<AdminJobList>(`${ADMIN_API.jobs}?status=failed,dead`, fromQuery(context)),
  });

/** Runs a failed or dead job again now; the list is reloaded, whatever the outcome. */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<AdminJob>(adminPath(ADMIN_API.jobRetry, { id }), { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.jobs }),
  });
}
