import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { PrivacyPage } from '@web/features/legal/components/privacy-page';
import { TermsPage } from '@web/features/legal/components/terms-page';
import { PortalHub } from '@web/features/portal/components/portal-hub';
import { FramedInvitation } from '@web/features/guidance/components/onboarding-prompt';
import { PORTAL_PAGES } from '../portal-pages';
import { SharedFramePage } from './shared';

/**
 * What a frame shows in the page's place, by the page's name: a portal route's top (build/pages.ts
 * PRELOADED_ROUTES), or a page open to everyone as the portal shows it to someone signed in
 * (PRERENDERED_PAGES with `portalFrame`): whole, or its top where the app adds the rest below.
 */
const FRAMED_PAGES: Record<string, ComponentType> = {
  ...PORTAL_PAGES,
  terms: TermsPage,
  privacy: PrivacyPage,
  'portal-home': () => <PortalHub framed />,
  // While loading: the server fills it with what the link shares (render-shared.tsx).
  shared: SharedFramePage,
};

/**
 * A page as a signed-in visit first paints it, before the app runs: the portal's chrome around it
 * (prerender.tsx; docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md).
 */
export function PortalFrameDocument({ name, path, notice = false }: { name: string; path: string; notice?: boolean }) {
  const Page = FRAMED_PAGES[name];
  if (!Page) throw new Error(`no portal frame for the page named ${name}`);
  return (
    <MemoryRouter initialEntries={[path]}>
      {/* `notice`: the onboarding invitation may come above the page; the frame holds it, shown for a visit the
          app has seen invited (styles.css; docs/decisions/111-a-visitor-comes-back.md). */}
      <PortalLayout notice={notice ? <FramedInvitation /> : undefined} page={<Page />} />
    </MemoryRouter>
  );
}
