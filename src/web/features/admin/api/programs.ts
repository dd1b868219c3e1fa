import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AdminProgram, AdminProgramList, AdminProgramWrite } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { adminKeys } from './keys';

// Staff editing of programs (docs/product/guidance.md#staff-editing).

/** What members see of programs is cached under 'guidance' (features/guidance/api/guidance.ts); staff are members too. */
const MEMBER_PROGRAMS_KEY = ['guidance', 'programs'] as const;

export const adminProgramsQuery = () =>
  queryOptions({
    queryKey: adminKeys.programs,
    queryFn: (context) => apiRequest<AdminProgramList>(ADMIN_API.programs, fromQuery(context)),
  });

export const adminProgramQuery = (slug: string) =>
  queryOptions({
    queryKey: adminKeys.program(slug),
    queryFn: (context) => apiRequest<AdminProgram>(adminPath(ADMIN_API.program, { slug }), fromQuery(context)),
  });

/**
 * A program as last read. After a save settles, refused or not, it is the program as it is now: the save read it
 * again before it settled (useSaveProgram).
 */
export const programAsRead = (queryClient: QueryClient, slug: string) =>
  queryClient.getQueryData<AdminProgram>(adminKeys.program(slug));

/** Reloads the list, every program and the members' views of them, whatever the outcome of a change. */
function useReloadPrograms() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.programs }),
      queryClient.invalidateQueries({ queryKey: MEMBER_PROGRAMS_KEY }),
    ]);
}

/** Adds a program (`slug` undefined) or replaces the one at `slug` (its slug may change). */
export function useSaveProgram() {
  const reload = useReloadPrograms();
  return useMutation({
    mutationFn: ({ slug, body }: { slug: string | undefined; body: AdminProgramWrite }) =>
      slug === undefined
        ? apiRequest<AdminProgram>(ADMIN_API.programs, { method: 'POST', body })
        : apiRequest<AdminProgram>(adminPath(ADMIN_API.program, { slug }), {
            method: 'PUT',
            body,
          }),
    onSettled: reload,
  });
}

export function useDeleteProgram() {
  const reload = useReloadPrograms();
  return useMutation({
    mutationFn: (slug: string) => apiRequest(adminPath(ADMIN_API.program, { slug }), { method: 'DELETE' }),
    onSettled: reload,
  });
}
