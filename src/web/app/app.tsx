import { RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProviders } from './providers';
import { sessionStore } from '@web/lib/session';
import { isAdminPath } from '@web/lib/paths';
import type { AppRouter } from './router';

export function App({ queryClient, router }: { queryClient: QueryClient; router: AppRouter }) {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

/**
 * The session was read from storage when lib/session loaded; its refresh timer starts with the app, or
 * with the login. Its module loads only then: a signed-out visitor's pages (sign-up, login) never need it.
 */
export function followSession(router: AppRouter, queryClient: QueryClient): void {
  let started = false;
  const start = () => {
    if (started || !sessionStore.get().isAuthenticated) return;
    started = true;
    void import('@web/lib/session-refresh').then(({ startSessionLifecycle }) =>
      startSessionLifecycle((to) => void router.navigate(to)),
    );
    // Asked for while the portal's chunks load: a portal page waits for it (portal-shell.tsx). An admin
    // page never shows the invitation, so it never asks.
    if (!isAdminPath(router.state.location.pathname))
      void import('@web/features/guidance/api/guidance').then(({ onboardingQuery }) =>
        queryClient.prefetchQuery(onboardingQuery()),
      );
  };
  sessionStore.subscribe(start);
  start();
}
