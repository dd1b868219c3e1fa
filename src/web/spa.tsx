import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { splitFirstPage } from './components/after-first-paint';
import { sessionStore } from './lib/session';

/**
 * Renders the SPA into `root`: from index.html (main.tsx), or from a pre-rendered page whose visitor
 * is signed in and so gets the portal's chrome (lean-page.tsx); React replaces what was there.
 * The session is read from localStorage when lib/session loads, before the first render
 * (docs/product/accounts.md#session-in-the-browser).
 */
export function startSpa(root: HTMLElement) {
  // Every portal page builds the contract's schemas for the plan and the onboarding, and zod's first
  // use is slow (V8 compiles it as it runs): asked for first, they are built in a task of their own
  // rather than in the one that starts the page's modules (docs/decisions/027-a-portal-page-renders-once-with-its-data.md).
  if (sessionStore.get().isAuthenticated) {
    void import('@shared/contract/own');
    void import('@shared/contract/guidance');
  }
  splitFirstPage();
  const reactRoot = createRoot(root);
  // As a transition, the first render is done in slices that yield to the browser, not one long task.
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
