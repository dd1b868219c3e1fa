import { toasterHost } from './toaster-host';

// The toasts of pages that must start light (the pre-rendered account pages): sonner loads with the
// first message, or with the toaster, instead of with the page (lib/toaster-host.ts).
type Kind = 'success' | 'error' | 'info';

const say = (kind: Kind) => (message: string) =>
  Promise.all([import('sonner'), toasterHost.ready()]).then(([{ toast }]) => {
    const id = toast[kind](message);
    return () => void toast.dismiss(id);
  });

/** How to take away the failure toast of each action that failed, by the action's name (decision 150). */
const failureToasts = new Map<string, () => void>();

/** Keeps the toast of the action `of`'s failure, to be taken away by `failureOver(of)`; a newer one replaces it. */
export function keepFailure(of: string, dismiss: () => void): void {
  failureOver(of);
  failureToasts.set(of, dismiss);
}

/**
 * The action `of` (as toastFailure or notify.error named it) worked: its earlier failure toast goes, if it still
 * shows, and only that one. "You seem to be offline" beside "Saved a copy as …" would say two things at once, one of
 * them over (docs/decisions/150-a-retry-leaves-only-what-is-still-true.md).
 */
export function failureOver(of: string): void {
  const dismiss = failureToasts.get(of);
  if (dismiss === undefined) return;
  failureToasts.delete(of);
  dismiss();
}

export const notify = {
  success: (message: string) => void say('success')(message),
  /** `of` names the action that failed, as toastFailure's does (lib/change.ts): `failureOver(of)` takes it away. */
  error: (message: string, of?: string) => {
    if (of !== undefined) failureOver(of);
    void say('error')(message).then((dismiss) => {
      if (of !== undefined) keepFailure(of, dismiss);
    });
  },
  info: (message: string) => void say('info')(message),
  /** Takes the toasts off the screen: what they said is over once the person follows the way out it offered. */
  dismissAll: () => void import('sonner').then(({ toast }) => toast.dismiss()),
};
