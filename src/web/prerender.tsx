import { StrictMode, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { HomeDocument } from './app/documents/home';
import { LoginDocument } from './app/documents/login';
import { PortalFrameDocument } from './app/documents/portal-frame';
import { PortalHomeDocument } from './app/documents/portal-home';
import { PrivacyDocument } from './app/documents/privacy';
import { ResetRequestDocument } from './app/documents/reset-request';
import { SharedDocument } from './app/documents/shared';
import { SignupDocument } from './app/documents/signup';
import { TermsDocument } from './app/documents/terms';
import { documentNavigation, NavigationProvider } from './lib/link';

const DOCUMENTS: Record<string, ComponentType> = {
  home: HomeDocument,
  terms: TermsDocument,
  privacy: PrivacyDocument,
  'portal-home': PortalHomeDocument,
  signup: SignupDocument,
  login: LoginDocument,
  'reset-request': ResetRequestDocument,
  shared: () => <SharedDocument token="" />,
};

/**
 * Used by the build only (build/vite-plugins.ts): a pre-rendered page's HTML for its #root, rendered at its
 * `path`, so the link it marks as the current page (the public bar's Home) is its own, as in the browser.
 */
export function renderPage(name: string, path: string): string {
  const Document = DOCUMENTS[name];
  if (!Document) throw new Error(`no pre-rendered page named ${name}`);
  return renderToString(
    <StrictMode>
      <NavigationProvider value={{ ...documentNavigation, usePathname: () => path }}>
        <Document />
      </NavigationProvider>
    </StrictMode>,
  );
}

/** Used by the build only: the frame a signed-in visit paints until the app runs, by the page's name and path. */
export function renderPortalFrame(name: string, path: string, { notice = false } = {}): string {
  return renderToString(
    <StrictMode>
      <PortalFrameDocument name={name} path={path} notice={notice} />
    </StrictMode>,
  );
}
