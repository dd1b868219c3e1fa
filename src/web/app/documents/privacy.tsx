import { PublicChrome } from '@web/components/layouts/public-chrome';
import { PrivacyPage } from '@web/features/legal/components/privacy-page';

/** The privacy policy as a signed-out visit gets it: pre-rendered at build time (prerender.tsx), hydrated by privacy.tsx. */
export function PrivacyDocument() {
  return (
    <PublicChrome>
      <PrivacyPage />
    </PublicChrome>
  );
}
