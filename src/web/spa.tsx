import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { splitFirstPage } from './components/after-first-paint';

/**
 * Renders the SPA into `root`: from index.html (main.tsx), or from a pre-rendered page whose visitor
 * is signed in and so gets the portal's chrome (lean-page.tsx); React replaces what was there.
 * The session is read from localStorage when lib/session loads, before the first render
 * (docs/product/accounts.md#session-in-the-browser).
 */
export function startSpa(root: HTMLElement) {
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
