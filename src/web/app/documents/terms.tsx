import { PublicChrome } from '@web/components/layouts/public-chrome';
import { TermsPage } from '@web/features/legal/components/terms-page';

/** The terms as a signed-out visit gets them: pre-rendered at build time (prerender.tsx), hydrated by terms.tsx. */
export function TermsDocument() {
  return (
    <PublicChrome>
      <TermsPage />
    </PublicChrome>
  );
}
