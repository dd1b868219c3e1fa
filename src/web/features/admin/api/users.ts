import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, AdminUserList, AdminUserUpdate } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { adminKeys, type AdminUsersParams } from './keys';

/** The list's address: only what differs from the first page of everyone. */
export function adminUsersPath({ search, page, attention, newest, after, before }: AdminUsersParams): string {
  const query = [
    search ? `search=${encodeURIComponent(search)}` : '',
    attention ? 'attention=true' : '',
    page > 1 ? `page=${page}` : '',
    newest !== null ? `newest_id=${newest}` : '',
    after !== null ? `after_id=${after}` : '',
    before !== null ? `before_id=${before}` : '',
  ].filter(Boolean);
  return query.length ? `${ADMIN_API.users}?${query.join('&')}` : ADMIN_API.users;
}

export const adminUsersQuery = (params: AdminUsersParams) =>
  queryOptions({
    queryKey: adminKeys.users(params),
    queryFn: (context) => apiRequest<AdminUserList>(adminUsersPath(params), fromQuery(context)),
    // The page on screen stays while the next one loads, so the list does not jump to a spinner.
    placeholderData: keepPreviousData,
  });

export const updateAdminUser = (id: number, body: AdminUserUpdate) =>
  apiRequest<AdminUser>(adminPath(ADMIN_API.user, { id }), { method: 'PATCH', body });

/** Changes a user (plan, active); every page and search of the users list is reloaded, whatever the outcome. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AdminUserUpdate }) => updateAdminUser(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export const cancelAdminUserEmailChange = (id: number) =>
  apiRequest<AdminUser>(adminPath(ADMIN_API.userEmailChange, { id }), { method: 'DELETE' });

/**
 * Cancels a user's waiting change of e-mail address (its links are refused from then on); every page and search
 * of the users list is reloaded, whatever the outcome.
 */
export function useCancelAdminUserEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => cancelAdminUserEmailChange(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
