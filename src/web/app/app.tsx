import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { createRouter } from './router';
import { setSessionNavigator } from '@web/lib/session-refresh';

export function App() {
  const [router] = useState(createRouter);
  useEffect(() => setSessionNavigator((to) => void router.navigate(to)), [router]);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
