import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { createRouter } from './router';
import { startSessionLifecycle } from '@web/lib/session-refresh';

export function App() {
  const [router] = useState(createRouter);
  // The session was read from storage when lib/session loaded; its refresh timer starts with the app.
  useEffect(() => startSessionLifecycle((to) => void router.navigate(to)), [router]);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
