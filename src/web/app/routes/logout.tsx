import { LogoutScreen } from '@web/features/auth/components/logout-screen';

export function Component() {
  return <LogoutScreen />;
}
