import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, AdminUserList, AdminUserUpdate } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest } from '@web/lib/api-client';
import { adminKeys } from './keys';

export const adminUsersQuery = (search: string) =>
  queryOptions({
    queryKey: adminKeys.users(search),
    queryFn: ({ signal }) =>
      apiRequest<AdminUserList>(`${ADMIN_API.users}${search ? `?search=${encodeURIComponent(search)}` : ''}`, {
        signal,
      }),
  });

export const updateAdminUser = (id: number, body: AdminUserUpdate) =>
  apiRequest<AdminUser>(adminPath(ADMIN_API.user, { id }), { method: 'PATCH', body });

/** Changes a user (plan, active); every search of the users list is reloaded, whatever the outcome. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AdminUserUpdate }) => updateAdminUser(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
