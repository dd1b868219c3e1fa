/**
 * The document says when the app has started: its first page rendered and committed, with no move of the router
 * under way (a redirect the first page makes, the guard's to login, comes first). The e2e tests wait for it after
 * every document load (docs/decisions/098-a-first-look-waits-for-the-apps-start.md); nothing in the app reads it.
 */
export const APP_STARTED_ATTRIBUTE = 'data-started';

export function markAppStarted(): void {
  document.documentElement.setAttribute(APP_STARTED_ATTRIBUTE, '');
}

/** A pre-rendered page handing over to the SPA: the app that starts now is the SPA, not the page that was there. */
export function unmarkAppStarted(): void {
  document.documentElement.removeAttribute(APP_STARTED_ATTRIBUTE);
}
