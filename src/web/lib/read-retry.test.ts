import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { READ_RETRIES, readRetryDelay, shouldRetryRead } from './read-retry';

describe('shouldRetryRead', () => {
  it('tries a shed, proxied or dropped read again, up to READ_RETRIES times', () => {
    for (const error of [
      new ApiError(503, { detail: 'busy' }),
      new ApiError(502, null),
      new TypeError('fetch failed'),
    ]) {
      expect(shouldRetryRead(0, error)).toBe(true);
      expect(shouldRetryRead(READ_RETRIES - 1, error)).toBe(true);
      expect(shouldRetryRead(READ_RETRIES, error)).toBe(false);
    }
  });

  it('never repeats an answer about the request itself, nor a server error', () => {
    for (const status of [400, 401, 403, 404, 429, 500])
      expect(shouldRetryRead(0, new ApiError(status, null))).toBe(false);
    expect(shouldRetryRead(0, new Error('schema mismatch'))).toBe(false);
  });

  it('waits longer each time, never over 8 s', () => {
    expect([0, 1, 2, 3, 4].map(readRetryDelay)).toEqual([1000, 2000, 4000, 8000, 8000]);
  });
});
