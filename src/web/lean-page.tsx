import './lib/zod-csp';
import { StrictMode, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { sessionStore } from './lib/session';
import './fonts.css';
import './styles.css';

/**
 * Starts a pre-rendered page (home, legal pages, portal hub: see build/pages.ts) with React alone — no
 * router, query client or API contract; links load the next page's document (lib/link). The build
 * renders the page into #root; the dev server does not, so it is rendered from scratch there.
 * `spaWhenSignedIn`: pages that wear the portal's chrome for someone signed in (AdaptiveLayout) load
 * the SPA instead, which replaces the signed-out rendering.
 */
export function startLeanPage(page: ReactNode, { spaWhenSignedIn = false } = {}) {
  const root = document.getElementById('root');
  if (!root) throw new Error('the page has no #root element');
  if (spaWhenSignedIn && sessionStore.get().isAuthenticated) {
    void import('./spa').then(({ startSpa }) => startSpa(root));
    return;
  }
  const tree = <StrictMode>{page}</StrictMode>;
  if (root.hasChildNodes()) hydrateRoot(root, tree);
  else createRoot(root).render(tree);
}
