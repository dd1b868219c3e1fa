import { MemoryRouter } from 'react-router';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { PORTAL_PAGES } from '../portal-pages';

/**
 * A portal page as it first paints, before the app runs: the portal's chrome and the top of the page
 * (prerender.tsx; docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md).
 */
export function PortalFrameDocument({ name, path }: { name: keyof typeof PORTAL_PAGES; path: string }) {
  const Page = PORTAL_PAGES[name];
  return (
    <MemoryRouter initialEntries={[path]}>
      <PortalLayout page={<Page />} />
    </MemoryRouter>
  );
}
