/**
 * What one read of the users list asks for: a search, a page (from 1), only those needing attention, and the
 * newest user its pages hold (null: up to the latest sign-up).
 */
export interface AdminUsersParams {
  search: string;
  page: number;
  attention: boolean;
  newest: number | null;
  /** The page next to one shown, from its last user (`after`) or its first (`before`); null: by its number. */
  after: number | null;
  before: number | null;
}

/** The cache keys of the admin's lists; each API file's hooks reload their own. */
export const adminKeys = {
  applications: ['admin', 'applications'],
  audio: (kind: string) => ['admin', 'audio', kind],
  backups: ['admin', 'backups'],
  categories: ['admin', 'categories'],
  jobs: ['admin', 'jobs'],
  programs: ['admin', 'programs'],
  program: (slug: string) => ['admin', 'programs', slug],
  support: (openOnly?: boolean) =>
    openOnly === undefined ? ['admin', 'support'] : ['admin', 'support', openOnly ? 'open' : 'all'],
  users: (params?: AdminUsersParams) =>
    params === undefined
      ? ['admin', 'users']
      : ['admin', 'users', params.search, params.page, params.attention, params.newest, params.after, params.before],
} as const;
