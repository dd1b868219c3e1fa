import { PortalHub } from '@web/features/marketing/components/portal-hub';

export function Component() {
  return <PortalHub />;
}
