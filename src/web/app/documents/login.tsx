import { PublicChrome } from '@web/components/layouts/public-chrome';
import { LoginForm } from '@web/features/auth/components/login-form';

/** The page as a signed-out visit gets it: pre-rendered at build time (prerender.tsx), hydrated by login.tsx. */
export function LoginDocument() {
  return (
    <PublicChrome>
      <LoginForm />
    </PublicChrome>
  );
}
