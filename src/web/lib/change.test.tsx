import { renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { ApiError, OFFLINE_MESSAGE } from './api-client';
import { GONE_MEANWHILE, toastFailure, useChange } from './change';
import { sessionStore } from './session';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const refusedToken = () => new ApiError(401, { detail: 'Given token not valid for any token type' });

afterEach(() => {
  vi.clearAllMocks();
  sessionStore.clear();
});

describe('toastFailure', () => {
  it('says the call’s own words, or the message it is given', () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    toastFailure(new ApiError(400, { name: ['This field is required.'] }));
    toastFailure(new TypeError('Failed to fetch'));
    toastFailure(new ApiError(500, undefined), 'The export failed.');
    expect(vi.mocked(toast.error).mock.calls).toEqual([
      ['This field is required.'],
      [OFFLINE_MESSAGE],
      ['The export failed.'],
    ]);
  });

  it('says nothing for a call that ended the session: that has its one toast, on the way to login', () => {
    // What apiRequest leaves behind when the server refused the token and its refresh: no session.
    toastFailure(refusedToken());
    toastFailure(refusedToken(), 'The export failed.');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('still says a refused token while the session goes on (its refresh could not reach the server)', () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    toastFailure(refusedToken());
    expect(toast.error).toHaveBeenCalledWith('Given token not valid for any token type');
  });
});

describe('useChange', () => {
  it('says a change to something deleted meanwhile (another tab) in words, and reloads the list', async () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { result } = renderHook(() => useChange(['own']), {
      wrapper: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
    });
    const gone = new ApiError(404, { detail: 'Not found.' });
    await expect(result.current(() => Promise.reject(gone))).rejects.toBe(gone);
    expect(toast.error).toHaveBeenCalledWith(GONE_MEANWHILE);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['own'] });
  });
});
