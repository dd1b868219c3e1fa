import type { AdminBackupStatus } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { ADMIN_API } from '@shared/contract/admin';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { adminKeys } from './keys';

/** The backups' state: on or off, where, when, the last one, the last failure and the next time. */
export const adminBackupsQuery = () =>
  queryOptions({
    queryKey: adminKeys.backups,
    queryFn: (context) => apiRequest<AdminBackupStatus>(ADMIN_API.backups, fromQuery(context)),
  });
