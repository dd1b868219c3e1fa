import { LoginForm } from '@web/features/auth/components/login-form';

export function Component() {
  return <LoginForm />;
}
