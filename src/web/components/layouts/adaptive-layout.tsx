import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { removePortalFrame } from '@web/lib/portal-frame';
import { useSession } from '@web/lib/session';
import { PublicLayout } from './public-layout';

let loadedPortalLayout: ComponentType | undefined;

/**
 * The portal's layout, loaded (the router asks for it with a signed-in visitor's page, router.tsx). Once it
 * is in, AdaptiveLayout renders it at once: a lazy component suspends on its first render even then, and
 * React holds back what replaces a fallback for 300 ms.
 */
export const loadPortalLayout = () =>
  import('./portal-layout').then(({ PortalLayout }) => (loadedPortalLayout = PortalLayout));

const LazyPortalLayout = lazy(() => loadPortalLayout().then((PortalLayout) => ({ default: PortalLayout })));

/** Pages open to everyone (legal, portal home) wear the portal's bar when the visitor is signed in. */
export function AdaptiveLayout() {
  // Kept for the layout's life: switching from the lazy component to the loaded one would remount the page.
  const [PortalLayout] = useState(() => loadedPortalLayout ?? LazyPortalLayout);
  const signedIn = useSession().isAuthenticated;
  // The document's portal frame of the page, put there for a signed-in visit, goes with the portal's
  // layout (which removes it when it shows) or as soon as the page shows signed out instead.
  useEffect(() => {
    if (!signedIn) removePortalFrame();
  }, [signedIn]);
  return signedIn ? (
    <Suspense fallback={null}>
      <PortalLayout />
    </Suspense>
  ) : (
    <PublicLayout />
  );
}
