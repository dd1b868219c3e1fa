import type { QueryKey } from '@tanstack/react-query';
import { useChange } from '@web/lib/change';

/** The cache keys of the admin's lists; each API file's hooks reload their own. */
export const adminKeys = {
  applications: ['admin', 'applications'],
  audio: (kind: string) => ['admin', 'audio', kind],
  categories: ['admin', 'categories'],
  users: (search?: string) => (search === undefined ? ['admin', 'users'] : ['admin', 'users', search]),
} as const;

/** A change of the admin's data that reloads the list under `queryKey`. */
export const useAdminChange = (queryKey: QueryKey) => useChange(queryKey);
