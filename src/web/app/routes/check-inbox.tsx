import { CheckInbox } from '@web/features/auth/components/check-inbox';

export function Component() {
  return <CheckInbox />;
}
