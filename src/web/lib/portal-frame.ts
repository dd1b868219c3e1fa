// A portal page's document carries the page's pre-rendered frame beside the app's root
// (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md): the frame is what shows until the page
// itself is ready, then it goes. styles.css keeps the root unseen while it is there.

// With its extension: the build's config (vite-plugins.ts) loads this file too.
import { SESSION } from './session-keys.ts';
import { browserStorage } from './browser-storage.ts';

export const PORTAL_FRAME_ID = 'portal-frame';

/**
 * Marks the account button's text in a frame, rendered without an account: the frame's script writes the
 * signed-in address there before the first paint (build/vite-plugins.ts), so the button is as wide as the
 * app's and the bar does not change when the app takes over.
 */
export const FRAME_ACCOUNT_EMAIL_ATTRIBUTE = 'data-frame-account-email';

/**
 * Whether a frame is on the page that was rendered for another path than `pathname`; a frame's path
 * ending in `*` is every path it begins (the share links' `/s/*`: build/pages.ts).
 */
export function portalFrameIsOfAnotherPage(pathname: string): boolean {
  const framed = document.getElementById(PORTAL_FRAME_ID)?.dataset.path;
  if (framed === undefined) return false;
  return framed.endsWith('*') ? !pathname.startsWith(framed.slice(0, -1)) : framed !== pathname;
}

export function removePortalFrame(): void {
  document.getElementById(PORTAL_FRAME_ID)?.remove();
}

/**
 * Remembers whether the onboarding invitation goes above portal pages. The frame shows it above the page's top
 * where it goes, the page's top alone where it does not, and only the chrome where neither is known yet (a
 * first visit on this device): the invitation would push the page's top down when it arrived
 * (docs/decisions/111-a-visitor-comes-back.md).
 */
export function rememberInvitation(invited: boolean): void {
  const { invitation, noInvitation } = SESSION.storageKeys;
  browserStorage.remove(invited ? noInvitation : invitation);
  browserStorage.set(invited ? invitation : noInvitation, '1');
}
