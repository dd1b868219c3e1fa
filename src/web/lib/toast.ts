import { toasterHost } from './toaster-host';

// The toasts of pages that must start light (the pre-rendered account pages): sonner loads with the
// first message, or with the toaster, instead of with the page (lib/toaster-host.ts).
type Kind = 'success' | 'error' | 'info';

const say = (kind: Kind) => (message: string) => {
  void Promise.all([import('sonner'), toasterHost.ready()]).then(([{ toast }]) => toast[kind](message));
};

export const notify = {
  success: say('success'),
  error: say('error'),
  info: say('info'),
  /** Takes the toasts off the screen: what they said is over once the person follows the way out it offered. */
  dismissAll: () => void import('sonner').then(({ toast }) => toast.dismiss()),
};
