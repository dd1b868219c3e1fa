import { PortalHub } from '@web/features/portal/components/portal-hub';

export function Component() {
  return <PortalHub />;
}
