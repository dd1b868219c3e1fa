import { toast, type ExternalToast } from 'sonner';

/**
 * Tells in an error toast of a problem the page found itself: a file too big, a microphone refused, a
 * sound the browser would not play, nothing to play, the session ended. A failed API call is told by
 * toastFailure (lib/change.ts) instead, which keeps quiet when the call ended the session; lint allows
 * `toast.error` only in these two (eslint.config.js).
 */
export function toastProblem(message: string, options?: ExternalToast): void {
  if (options) toast.error(message, options);
  else toast.error(message);
}
