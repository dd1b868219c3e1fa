import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { createRouter } from './router';

export function App() {
  const [router] = useState(createRouter);
  // The session was read from storage when lib/session loaded; its refresh timer starts with the app.
  // Its module (with the API contract and the toasts) loads after the first render, off the entry chunk.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('@web/lib/session-refresh').then(({ startSessionLifecycle }) => {
      if (!cancelled) stop = startSessionLifecycle((to) => void router.navigate(to));
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [router]);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
