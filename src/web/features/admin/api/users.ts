import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUserUpdate } from '@shared/contract';
import { ADMIN_API, adminPath, adminUserListSchema, adminUserSchema } from '@shared/contract/admin';
import { apiRequest } from '@web/lib/api-client';
import { adminKeys } from './keys';

export const adminUsersQuery = (search: string) =>
  queryOptions({
    queryKey: adminKeys.users(search),
    queryFn: ({ signal }) =>
      apiRequest(`${ADMIN_API.users}${search ? `?search=${encodeURIComponent(search)}` : ''}`, {
        schema: adminUserListSchema,
        signal,
      }),
  });

export const updateAdminUser = (id: number, body: AdminUserUpdate) =>
  apiRequest(adminPath(ADMIN_API.user, { id }), { method: 'PATCH', body, schema: adminUserSchema });

/** Changes a user (plan, active); every search of the users list is reloaded, whatever the outcome. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AdminUserUpdate }) => updateAdminUser(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
