import { useCallback } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LIST_CHANGED_CODE, MESSAGE_CHANGED_CODE } from '@shared/contract/portal-plain';
import { ApiError, describeError, endedTheSession, mayPassWhenTriedAgain } from './api-client';
import { PortalLeftError } from './portal-presence';
import { failureOver, keepFailure } from './toast';

export { failureOver } from './toast';
export { describeError, endedTheSession, isNetworkFailure, mayPassWhenTriedAgain, OFFLINE_MESSAGE } from './api-client';

/**
 * Tells of a failed call in a toast: `message`, or the call's own words. Nothing when the call ended the
 * session (signed out from another browser, a new password): that has said so already, on its way to login,
 * and a second toast would only say that the page failed. Nothing either for a start dropped as the person left
 * the portal while it waited (lib/portal-presence.ts): they are elsewhere, and nothing failed.
 * `of` names the action that failed, the same each time it is tried again (`copy ${token}`): its newer failure
 * replaces this toast, and `failureOver(of)` takes it away once the action works
 * (docs/decisions/150-a-retry-leaves-only-what-is-still-true.md).
 */
export function toastFailure(error: unknown, message: string = describeError(error), of?: string): void {
  if (of !== undefined) failureOver(of);
  if (endedTheSession(error) || error instanceof PortalLeftError) return;
  const id = toast.error(message);
  if (of !== undefined) keepFailure(of, () => toast.dismiss(id));
}

/** A change refused as not found: what it touched was deleted meanwhile, most often in another tab. */
export const GONE_MEANWHILE =
  'That was deleted meanwhile, perhaps in another tab or on another device. The list is up to date now.';
/** A new order refused as not the list as it is now: a row was added or removed meanwhile, most often in another tab. */
export const LIST_CHANGED_MEANWHILE =
  'The list changed meanwhile, perhaps in another tab or on another device, so the new order was not saved. The list is up to date now: move it again.';

/** What a toast says of a failed change: a thing gone or a list changed meanwhile in the person's words. */
function failureText(error: unknown): string {
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 404) return GONE_MEANWHILE;
  if ((error.body as { code?: unknown } | null)?.code === LIST_CHANGED_CODE) return LIST_CHANGED_MEANWHILE;
  return describeError(error);
}

/**
 * An edit of a message refused as changed meanwhile (one's own, or staff's of the library): the form says so under its
 * field, with what it reads now (docs/decisions/062-an-edit-names-the-text-it-began-from.md), and no toast again.
 */
export const refusedAsChangedMeanwhile = (error: unknown) =>
  error instanceof ApiError && (error.body as { code?: unknown } | null)?.code === MESSAGE_CHANGED_CODE;

export interface ChangeOptions {
  /**
   * What the change does to what, the same each time it is tried again (`delete ${id}`), unique among the changes of
   * its list: once it works, the toast of its last failure goes, and no other's (decision 150). Required, so a new
   * change cannot forget it; only an Undo's change (`AS_AN_UNDO`) has none.
   */
  key: string;
  /**
   * A failure the form says itself, under its field where the person is (an edit of a message changed meanwhile,
   * docs/decisions/062-an-edit-names-the-text-it-began-from.md), or an Undo's toast coming back (`AS_AN_UNDO`): no
   * toast says it a second time.
   */
  saidInPlace?: (error: unknown) => boolean;
}

/**
 * The change an Undo makes, returned by its toast's action: a failure that may pass when tried again is said by the
 * Undo's toast coming back, to be pressed again (app/themed-toaster.tsx), and only one that will not pass (the thing
 * gone meanwhile, a plan, a limit) by the change's own toast
 * (docs/decisions/144-an-undo-that-fails-comes-back.md).
 */
export const AS_AN_UNDO = { saidInPlace: mayPassWhenTriedAgain } as const;

export type Change = <T>(
  action: () => Promise<T>,
  success: string | ((result: T) => string) | undefined,
  options: ChangeOptions | typeof AS_AN_UNDO,
) => Promise<T>;

/**
 * Runs one change of the person's or the staff's data: a toast tells how it went, and the list it touched is reloaded
 * whether it worked or not. A failure is rethrown, so a form keeps its input and shows field errors. A 404 says
 * the thing is gone in the person's words, not the server's bare "Not found.", and an order refused as made from a
 * list changed meanwhile says that, with the list read again. A change given a `key` takes away the toast of its own
 * last failure once it works. The same function from one render to the next (for a constant key), so rows that take
 * it need not render again.
 */
export function useChange(queryKey: QueryKey): Change {
  const queryClient = useQueryClient();
  return useCallback<Change>(
    async (action, success, options) => {
      const of = 'key' in options ? `${JSON.stringify(queryKey)} ${options.key}` : undefined;
      try {
        const result = await action();
        if (of !== undefined) failureOver(of);
        if (success) toast.success(typeof success === 'function' ? success(result) : success);
        return result;
      } catch (error) {
        if (!options.saidInPlace?.(error)) toastFailure(error, failureText(error), of);
        else if (of !== undefined) failureOver(of);
        throw error;
      } finally {
        await queryClient.invalidateQueries({ queryKey });
      }
    },
    [queryClient, queryKey],
  );
}
