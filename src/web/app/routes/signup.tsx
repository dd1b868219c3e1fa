import { SignupForm } from '@web/features/auth/components/signup-form';

export function Component() {
  return <SignupForm />;
}
