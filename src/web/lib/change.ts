import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from './api-client';

/** What a call that never reached the server says (fetch and XMLHttpRequest fail with a TypeError). */
export const OFFLINE_MESSAGE = 'You seem to be offline. Check your connection and try again.';

export const isNetworkFailure = (error: unknown) => error instanceof TypeError;

/** The message worth showing for a failed call: the server's detail, or its first field error. */
export function describeError(error: unknown): string {
  if (isNetworkFailure(error)) return OFFLINE_MESSAGE;
  if (error instanceof ApiError) {
    const first = Object.values(error.fieldErrors)[0];
    if (first && !error.message.startsWith('Request failed')) return error.message;
    return first ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export type Change = <T>(action: () => Promise<T>, success?: string | ((result: T) => string)) => Promise<T>;

/**
 * Runs one change of the person's or the staff's data: a toast tells how it went, and the list it touched is reloaded
 * whether it worked or not. A failure is rethrown, so a form keeps its input and shows field errors.
 */
export function useChange(queryKey: QueryKey): Change {
  const queryClient = useQueryClient();
  return async (action, success) => {
    try {
      const result = await action();
      if (success) toast.success(typeof success === 'function' ? success(result) : success);
      return result;
    } catch (error) {
      toast.error(describeError(error));
      throw error;
    } finally {
      await queryClient.invalidateQueries({ queryKey });
    }
  };
}
