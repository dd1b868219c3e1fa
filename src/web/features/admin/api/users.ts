import { queryOptions } from '@tanstack/react-query';
import { ADMIN_API, adminPath, adminUserListSchema, adminUserSchema, type AdminUserUpdate } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const adminUsersQuery = (search: string) =>
  queryOptions({
    queryKey: ['admin', 'users', search],
    queryFn: ({ signal }) =>
      apiRequest(`${ADMIN_API.users}${search ? `?search=${encodeURIComponent(search)}` : ''}`, {
        schema: adminUserListSchema,
        signal,
      }),
  });

export const updateAdminUser = (id: number, body: AdminUserUpdate) =>
  apiRequest(adminPath(ADMIN_API.user, { id }), { method: 'PATCH', body, schema: adminUserSchema });
