import { useEffect } from 'react';
import { toast, Toaster, type ExternalToast } from 'sonner';
import { sessionStore } from '@web/lib/session';
import { useTheme } from '@web/lib/theme';

// A toast is keyed by its kind and text: the same message again replaces the one on screen (and
// restarts its time) instead of stacking a copy under it (docs/product/screens.md#errors-on-screen).
for (const kind of ['success', 'error', 'info', 'warning', 'message'] as const) {
  const show = toast[kind];
  toast[kind] = (message: Parameters<typeof show>[0], data?: ExternalToast) =>
    show(message, { id: typeof message === 'string' ? `${kind}:${message}` : undefined, ...data });
}

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

/** The spec's toasts last the original toast library's 5 s unless they set their own (1 s). */
const TOAST_DEFAULT_MS = 5000;

export default function ThemedToaster() {
  const theme = useTheme();
  useDismissOnLogin();
  // Below the 64 px header, so toasts never cover the theme toggle or the account menu, and below the portal's
  // "New here?" invitation while it is in view (--portal-notice-bottom, its bottom edge in the window, set by
  // features/guidance/components/onboarding-prompt.tsx), so they never cover its text or buttons.
  return (
    <Toaster
      theme={theme}
      position="top-right"
      offset={{ top: 'max(76px, calc(var(--portal-notice-bottom, 0px) + 12px))' }}
      mobileOffset={{ top: 'max(72px, calc(var(--portal-notice-bottom, 0px) + 8px))' }}
      richColors
      closeButton
      duration={TOAST_DEFAULT_MS}
    />
  );
}
