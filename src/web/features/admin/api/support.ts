import type { AdminSupportRequest, AdminSupportRequestList } from '@shared/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { adminKeys } from './keys';

export const adminSupportQuery = (openOnly: boolean) =>
  queryOptions({
    queryKey: adminKeys.support(openOnly),
    queryFn: (context) =>
      apiRequest<AdminSupportRequestList>(
        `${ADMIN_API.supportRequests}${openOnly ? '?open=true' : ''}`,
        fromQuery(context),
      ),
  });

const setHandled = (id: number, handled: boolean) =>
  apiRequest<AdminSupportRequest>(adminPath(ADMIN_API.supportRequest, { id }), {
    method: 'PATCH',
    body: { handled },
  });

/** Marks a request handled or open again; both lists (all, open) are reloaded, whatever the outcome. */
export function useSetSupportHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, handled }: { id: number; handled: boolean }) => setHandled(id, handled),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.support() }),
  });
}
