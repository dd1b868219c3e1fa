import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { adminSupportRequestListSchema, adminSupportRequestSchema } from '@shared/contract/support';
import { apiRequest } from '@web/lib/api-client';
import { adminKeys } from './keys';

export const adminSupportQuery = (openOnly: boolean) =>
  queryOptions({
    queryKey: adminKeys.support(openOnly),
    queryFn: ({ signal }) =>
      apiRequest(`${ADMIN_API.supportRequests}${openOnly ? '?open=true' : ''}`, {
        schema: adminSupportRequestListSchema,
        signal,
      }),
  });

const setHandled = (id: number, handled: boolean) =>
  apiRequest(adminPath(ADMIN_API.supportRequest, { id }), {
    method: 'PATCH',
    body: { handled },
    schema: adminSupportRequestSchema,
  });

/** Marks a request handled or open again; both lists (all, open) are reloaded, whatever the outcome. */
export function useSetSupportHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, handled }: { id: number; handled: boolean }) => setHandled(id, handled),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.support() }),
  });
}
