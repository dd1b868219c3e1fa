import type { QueryClient } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App, followSession } from './app/app';
import { createQueryClient } from './app/providers';
import { createRouter, type AppRouter } from './app/router';
import { splitFirstPage } from './components/after-first-paint';
import { takeEarlyClicks } from './lib/early-clicks';
import { adoptEarlyReads } from './lib/early-reads';
import { leaveSessionEntryBehind } from './lib/session-entry';

/**
 * Renders the SPA into `container`: from index.html (main.tsx), or from a pre-rendered page whose visitor
 * is signed in and so gets the portal's chrome, or that hands over after a login (lean-page.tsx); React
 * replaces what was there. The session is read from localStorage when lib/session loads, before the
 * first render (docs/product/accounts.md#session-in-the-browser).
 *
 * A page already on screen stays until the router has the code (and, on a first load, the data) of the
 * page it opens on: rendered before, the SPA would show its empty HydrateFallback in its place
 * meanwhile (docs/decisions/031-a-page-on-screen-stays-until-the-app-shows-its-own.md).
 * `beforeFirstRender` ends that page's own React root, if it has one.
 */
export function startSpa(container: HTMLElement, beforeFirstRender?: () => void) {
  // Reloaded on the entry a full-size session added, the tab goes back to the page's own (lib/session-entry.ts).
  leaveSessionEntryBehind();
  // The SPA renders a page of its own: a click on what was there before is not answered again.
  takeEarlyClicks();
  splitFirstPage();
  // Three tasks, not one: the modules were evaluated in the task that called this; the router's start
  // (its routes ranked and matched, the page's chunks asked for) is the next; the session's follow-up and
  // the first render the one after. Together they were the longest task of a portal page's load
  // (docs/decisions/032-the-spa-starts-in-three-tasks.md).
  setTimeout(() => {
    const queryClient = createQueryClient();
    // The data a pre-rendered page asked for beside this code is the cache's, before anything asks for it again.
    adoptEarlyReads(queryClient);
    const router = createRouter(queryClient);
    setTimeout(() => showSpa(container, router, queryClient, beforeFirstRender));
  });
}

function showSpa(container: HTMLElement, router: AppRouter, queryClient: QueryClient, beforeFirstRender?: () => void) {
  followSession(router, queryClient);
  const render = () => {
    beforeFirstRender?.();
    const reactRoot = createRoot(container);
    const app = (
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>
    );
    // The page that handed over stays until this render commits: at once, in the same task, so no frame
    // paints an empty page between them. Otherwise, as a transition, the first render is done in slices
    // that yield to the browser, not one long task.
    if (beforeFirstRender) flushSync(() => reactRoot.render(app));
    else startTransition(() => reactRoot.render(app));
  };
  if (router.state.initialized || !container.hasChildNodes()) {
    render();
    return;
  }
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    render();
  });
}
