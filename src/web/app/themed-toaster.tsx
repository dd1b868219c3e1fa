import { useEffect, useSyncExternalStore } from 'react';
import { toast, Toaster, type Action, type ExternalToast } from 'sonner';
import { isNetworkFailure, mayPassWhenTriedAgain, retryAfterMs } from '@web/lib/api-client';
import { waitInWords } from '@shared/numbers';
import { focusPageHeading } from '@web/lib/page-heading';
import { sessionStore } from '@web/lib/session';
import { useTheme } from '@web/lib/theme';

// A toast is keyed by its kind and text: the same message again replaces the one on screen (and
// restarts its time) instead of stacking a copy under it (docs/product/screens.md#errors-on-screen). It
// comes as a new toast, not as the old one updated with the same text: the toaster's live region
// announces what is added, so a person pressing Save twice on a failing save hears it the second time too.
// A toast with an action (an Undo) is never replaced: each holds its own removal, and one lost to the next
// toast of the same words ("Day 2 removed", twice) would lose what it removed for good
// (docs/decisions/136-each-undo-keeps-its-own-toast-a-wait-offline-is-not-red.md). Its action is pressed as
// `pressedOnce` has it; failed in a way that may pass, the toast comes back with a line saying so, until it is pressed
// anew or closed (docs/decisions/144-an-undo-that-fails-comes-back.md,
// docs/decisions/150-a-retry-leaves-only-what-is-still-true.md).
/** The spec's toasts last the original toast library's 5 s unless they set their own (1 s). */
const TOAST_DEFAULT_MS = 5000;
const shownUnder = new Map<string, string>();
let shownCount = 0;
for (const kind of ['success', 'error', 'info', 'warning', 'message'] as const) {
  const show = toast[kind];
  const offer = (message: string, data: ExternalToast): string | number =>
    show(message, {
      ...data,
      action: pressedOnce(data.action, (error) => offerAgain(message, data, error)),
      id: `action#${++shownCount}`,
    });
  // The toast come back stays until the Undo is pressed again or the toast closed: gone by itself, it would take with
  // it the only way back to what was removed, however long the connection or the server takes. A wait the server
  // named (Retry-After) is said, and once it is over the line says so (decision 150).
  const offerAgain = (message: string, data: ExternalToast, error: unknown) => {
    const wait = isNetworkFailure(error) ? 0 : retryAfterMs(error);
    const id = offer(message, { ...data, description: undoNotDone(error, wait), duration: Infinity });
    if (wait === 0) return;
    setTimeout(() => {
      if (toast.getToasts().some((shown) => shown.id === id)) show(message, { id, description: UNDO_AGAIN_NOW });
    }, wait);
  };
  toast[kind] = (message: Parameters<typeof show>[0], data?: ExternalToast) => {
    if (typeof message !== 'string' || data?.id !== undefined) return show(message, data);
    if (data?.action !== undefined) return offer(message, data);
    const key = `${kind}:${message}`;
    const earlier = shownUnder.get(key);
    if (earlier !== undefined) toast.dismiss(earlier);
    const id = `${key}#${++shownCount}`;
    shownUnder.set(key, id);
    return show(message, { ...data, id });
  };
}

/**
 * The line of an Undo's toast come back after the Undo failed in a way that may pass (decision 144): offline, a wait
 * the server named (`wait`, ms, from its Retry-After), or none (decision 150).
 */
export const undoNotDone = (error: unknown, wait = 0) =>
  isNetworkFailure(error)
    ? 'The Undo did not go through: you seem to be offline. Press Undo again once you are back online.'
    : wait > 0
      ? `The Undo did not go through: the server asks to wait. Press Undo again in ${waitInWords(wait)}.`
      : 'The Undo did not go through. Press Undo again in a moment.';

/** The line once the server's wait is over. */
export const UNDO_AGAIN_NOW = 'The Undo did not go through. Press Undo again now.';

/**
 * How every toast's action (an Undo) is pressed (docs/decisions/138-an-undo-hands-the-keyboard-back-once.md):
 * - The keyboard leaves the toaster before the action runs. Leaving it, sonner gives the keyboard back to where it
 *   was before it went in (the page); left to sonner as the toast closes, that came after the action and took the
 *   keyboard from what the action put it on (the day brought back, decision 129).
 * - Refused (the action prevents the toast's closing: a limit reached since, decision 133), the keyboard is back on
 *   the page where the person was, or on its heading when that has gone, where the room for it is made; the toast
 *   stays, for a press once there is room.
 * - Done, it is done once: a toast stays pressable for a moment as it goes, and a second press there would put a day
 *   back twice.
 * - An action that calls the server returns the call's promise (a change made `AS_AN_UNDO`, lib/change.ts). Failed in
 *   a way that may pass (offline, no answer in time, 5xx, 429), `comeBack` offers the toast again, and the keyboard
 *   stays as after a refusal; failed for good (404, 403, 400), the change has said so and nothing comes back
 *   (docs/decisions/144-an-undo-that-fails-comes-back.md).
 */
function pressedOnce(action: ExternalToast['action'], comeBack: (error: unknown) => void): ExternalToast['action'] {
  if (!isAction(action)) return action;
  let done = false;
  return {
    ...action,
    onClick(event) {
      if (done) return;
      const button = event.currentTarget;
      if (button.contains(document.activeElement)) button.blur();
      const call: unknown = action.onClick(event);
      if (!event.defaultPrevented) done = true;
      else keyboardOnThePage();
      if (call instanceof Promise)
        call.catch((error: unknown) => {
          if (!mayPassWhenTriedAgain(error)) return;
          comeBack(error);
          keyboardOnThePage();
        });
    },
  };
}

/** Where a refused or failed action leaves the keyboard: where it was on the page, or on its heading when that has gone
 *  (also after a press of the pointer that left the keyboard nowhere: sonner's button may not take it). */
function keyboardOnThePage() {
  if (document.activeElement === null || document.activeElement === document.body) focusPageHeading();
}

const isAction = (action: ExternalToast['action']): action is Action =>
  typeof action === 'object' && action !== null && 'onClick' in action;

/** A successful login clears what the signed-out screens said (e.g. an earlier wrong password). */
function useDismissOnLogin() {
  useEffect(() => {
    let signedIn = sessionStore.get().isAuthenticated;
    const unsubscribe = sessionStore.subscribe(() => {
      const now = sessionStore.get().isAuthenticated;
      if (now && !signedIn) toast.dismiss();
      signedIn = now;
    });
    return () => void unsubscribe();
  }, []);
}

/** Where the toaster lays toasts across the screen instead of in a corner: its own phone width. */
const PHONE = '(max-width: 600px)';

function followPhoneWidth(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const usePhoneWidth = () =>
  useSyncExternalStore(
    followPhoneWidth,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );

export default function ThemedToaster() {
  const theme = useTheme();
  const phone = usePhoneWidth();
  useDismissOnLogin();
  // On a wide screen, top right below the 64 px header, so toasts never cover the theme toggle or the account
  // menu, and below the portal's "New here?" invitation while it is in view (--portal-notice-bottom, its bottom
  // edge in the window, set by features/guidance/components/onboarding-prompt.tsx), so they never cover its text
  // or buttons. On a phone a toast spans the screen: at the top it covered the heading being read, so it sits at
  // the bottom, above the mini-player, a session's corner and a page's own Start/Stop bar (lib/bottom-chrome.ts).
  return (
    <Toaster
      theme={theme}
      position={phone ? 'bottom-center' : 'top-right'}
      offset={{ top: 'max(76px, calc(var(--portal-notice-bottom, 0px) + 12px))' }}
      mobileOffset={{ bottom: 'calc(var(--portal-bottom-chrome, 0px) + var(--portal-page-bar, 0px) + 8px)' }}
      richColors
      closeButton
      duration={TOAST_DEFAULT_MS}
    />
  );
}
