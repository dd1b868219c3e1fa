import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { readRetryDelay, shouldRetryRead } from '@web/lib/read-retry';
import { toasterHost } from '@web/lib/toaster-host';

// The toaster is not needed for the first paint: its chunk loads once the browser is idle.
const ThemedToaster = lazy(() => import('./themed-toaster'));

function IdleToaster() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const whenIdle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = whenIdle(() => setReady(true));
    return () => cancel(handle);
  }, []);
  return ready ? (
    <Suspense fallback={null}>
      <ThemedToaster />
    </Suspense>
  ) : null;
}

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryRead,
        retryDelay: readRetryDelay,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* A pre-rendered page that handed over to the SPA keeps its own toaster (lean-page.tsx). */}
      {toasterHost.mountedByLeanPage ? null : <IdleToaster />}
    </QueryClientProvider>
  );
}
