import { PublicChrome } from '@web/components/layouts/public-chrome';
import { SignupForm } from '@web/features/auth/components/signup-form';

/** The page as a signed-out visit gets it: pre-rendered at build time (prerender.tsx), hydrated by signup.tsx. */
export function SignupDocument() {
  return (
    <PublicChrome>
      <SignupForm />
    </PublicChrome>
  );
}
