import { PortalHub } from '@web/features/portal/components/portal-hub';
import { HubGuidance } from '@web/features/guidance/components/hub-guidance';
import { useSession } from '@web/lib/session';

/** The hub in the SPA: signed in, with the person's suggestions (the pre-rendered page has none). */
export function Component() {
  const signedIn = useSession().isAuthenticated;
  return <PortalHub personal={signedIn ? <HubGuidance /> : undefined} />;
}
