import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './providers';
import { sessionStore } from '@web/lib/session';
import { createRouter } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createRouter(queryClient));
  // The session was read from storage when lib/session loaded; its refresh timer starts with the app,
  // or with the login. Its module loads only then: a signed-out visitor's pages (sign-up, login)
  // never need it.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    let started = false;
    const start = () => {
      if (started || !sessionStore.get().isAuthenticated) return;
      started = true;
      void import('@web/lib/session-refresh').then(({ startSessionLifecycle }) => {
        if (!cancelled) stop = startSessionLifecycle((to) => void router.navigate(to));
      });
      // Asked for while the portal's chunks load: a portal page waits for it (portal-shell.tsx).
      void import('@web/features/guidance/api/guidance').then(({ onboardingQuery }) =>
        queryClient.prefetchQuery(onboardingQuery()),
      );
    };
    const unsubscribe = sessionStore.subscribe(start);
    start();
    return () => {
      cancelled = true;
      unsubscribe();
      stop?.();
    };
  }, [router, queryClient]);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
