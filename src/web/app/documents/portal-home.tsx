import { PublicChrome } from '@web/components/layouts/public-chrome';
import { PortalHub } from '@web/features/portal/components/portal-hub';

/** The portal hub as a signed-out visit gets it: pre-rendered at build time (prerender.tsx), hydrated by portal-home.tsx. */
export function PortalHomeDocument() {
  return (
    <PublicChrome>
      <PortalHub />
    </PublicChrome>
  );
}
