import { PortalLayout } from '@web/components/layouts/portal-layout';

/** The signed-in frame: the sound plays on across portal pages, with the mini-player under each. */
export function Component() {
  return <PortalLayout />;
}
