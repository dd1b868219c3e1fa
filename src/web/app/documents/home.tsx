import { PublicChrome } from '@web/components/layouts/public-chrome';
import { HomePage } from '@web/features/marketing/components/home-page';

/** The home page as a first visit gets it: pre-rendered at build time (prerender.tsx), hydrated by home.tsx. */
export function HomeDocument() {
  return (
    <PublicChrome>
      <HomePage />
    </PublicChrome>
  );
}
