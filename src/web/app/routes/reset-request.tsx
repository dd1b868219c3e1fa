import { ResetRequestForm } from '@web/features/auth/components/reset-request-form';

export function Component() {
  return <ResetRequestForm />;
}
