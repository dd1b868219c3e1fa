import { useSession } from '@web/lib/session';
import { PortalLayout } from './portal-layout';
import { PublicLayout } from './public-layout';

/** Pages open to everyone (legal, portal home) wear the portal's bar when the visitor is signed in. */
export function AdaptiveLayout() {
  return useSession().isAuthenticated ? <PortalLayout /> : <PublicLayout />;
}
