import { PublicChrome } from '@web/components/layouts/public-chrome';
import { ResetRequestForm } from '@web/features/auth/components/reset-request-form';

/** The page as a signed-out visit gets it: pre-rendered at build time (prerender.tsx), hydrated by reset-request.tsx. */
export function ResetRequestDocument() {
  return (
    <PublicChrome>
      <ResetRequestForm />
    </PublicChrome>
  );
}
