import { lazy, Suspense } from 'react';
import { useSession } from '@web/lib/session';
import { PublicLayout } from './public-layout';

const PortalLayout = lazy(() => import('./portal-layout').then(({ PortalLayout }) => ({ default: PortalLayout })));

/** Pages open to everyone (legal, portal home) wear the portal's bar when the visitor is signed in. */
export function AdaptiveLayout() {
  return useSession().isAuthenticated ? (
    <Suspense fallback={null}>
      <PortalLayout />
    </Suspense>
  ) : (
    <PublicLayout />
  );
}
