import { PortalHub } from '@web/features/portal/components/portal-hub';
import { HubGuidance } from '@web/features/guidance/components/hub-guidance';
import { hubGuidanceQueries } from '@web/features/guidance/api/guidance';
import { useSession } from '@web/lib/session';
import type { PageQueries } from '../page-data';

/** Read only for someone signed in (page-data.ts): a visitor's hub shows nothing of theirs. */
export const pageQueries: PageQueries = () => hubGuidanceQueries();

/** The hub in the SPA: signed in, with the person's suggestions (the pre-rendered page has none). */
export function Component() {
  const signedIn = useSession().isAuthenticated;
  return <PortalHub personal={signedIn ? <HubGuidance /> : undefined} />;
}
