import { useCallback } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast, type ExternalToast } from 'sonner';
import { ApiError, describeError, endedTheSession } from './api-client';

export { describeError, endedTheSession, isNetworkFailure, OFFLINE_MESSAGE } from './api-client';

/**
 * Tells of a failed call in a toast: `message`, or the call's own words. Nothing when the call ended the
 * session (signed out from another browser, a new password): that has said so already, on its way to login,
 * and a second toast would only say that the page failed.
 */
export function toastFailure(error: unknown, message: string = describeError(error), options?: ExternalToast): void {
  if (endedTheSession(error)) return;
  if (options) toast.error(message, options);
  else toast.error(message);
}

/** A change refused as not found: what it touched was deleted meanwhile, most often in another tab. */
export const GONE_MEANWHILE =
  'That was deleted meanwhile, perhaps in another tab or on another device. The list is up to date now.';

export interface ChangeOptions {
  /**
   * The id its failure toast takes: a success of the same change dismisses it, and so can the caller (toast.dismiss)
   * when the person gives up, so a refusal that is answered does not stay on screen beside the answer.
   */
  failureToastId?: string;
}

export type Change = <T>(
  action: () => Promise<T>,
  success?: string | ((result: T) => string),
  options?: ChangeOptions,
) => Promise<T>;

/**
 * Runs one change of the person's or the staff's data: a toast tells how it went, and the list it touched is reloaded
 * whether it worked or not. A failure is rethrown, so a form keeps its input and shows field errors. A 404 says
 * the thing is gone in the person's words, not the server's bare "Not found.". The same function from one render
 * to the next (for a constant key), so rows that take it need not render again.
 */
export function useChange(queryKey: QueryKey): Change {
  const queryClient = useQueryClient();
  return useCallback<Change>(
    async (action, success, options) => {
      const failureToastId = options?.failureToastId;
      try {
        const result = await action();
        if (failureToastId !== undefined) toast.dismiss(failureToastId);
        if (success) toast.success(typeof success === 'function' ? success(result) : success);
        return result;
      } catch (error) {
        toastFailure(
          error,
          error instanceof ApiError && error.status === 404 ? GONE_MEANWHILE : describeError(error),
          failureToastId === undefined ? undefined : { id: failureToastId },
        );
        throw error;
      } finally {
        await queryClient.invalidateQueries({ queryKey });
      }
    },
    [queryClient, queryKey],
  );
}
