import { ApiError, isNetworkFailure } from './api-client';

// Reads (TanStack queries) that failed for a passing reason are tried again a few times, further
// apart each time: the connection dropped, or the server shed load (503 with Retry-After) or was
// restarting behind the proxy. An answer about the request itself (4xx) would only repeat.

const PASSING_STATUSES = new Set([502, 503, 504]);

/** Tries after the first: about 1 + 2 + 4 s, enough for a shed request or a restart. */
export const READ_RETRIES = 3;

export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= READ_RETRIES) return false;
  return isNetworkFailure(error) || (error instanceof ApiError && PASSING_STATUSES.has(error.status));
}

/** 1 s, 2 s, 4 s… at most 8 s. */
export const readRetryDelay = (failureCount: number) => Math.min(1000 * 2 ** failureCount, 8000);
