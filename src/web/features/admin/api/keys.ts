/** The cache keys of the admin's lists; each API file's hooks reload their own. */
export const adminKeys = {
  applications: ['admin', 'applications'],
  audio: (kind: string) => ['admin', 'audio', kind],
  categories: ['admin', 'categories'],
  jobs: ['admin', 'jobs'],
  programs: ['admin', 'programs'],
  program: (slug: string) => ['admin', 'programs', slug],
  support: (openOnly?: boolean) =>
    openOnly === undefined ? ['admin', 'support'] : ['admin', 'support', openOnly ? 'open' : 'all'],
  users: (search?: string) => (search === undefined ? ['admin', 'users'] : ['admin', 'users', search]),
} as const;
