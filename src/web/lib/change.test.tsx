import { renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { ApiError, OFFLINE_MESSAGE } from './api-client';
import { AS_AN_UNDO, GONE_MEANWHILE, toastFailure, useChange } from './change';
import { sessionStore } from './session';

vi.mock('sonner', () => {
  // The themed toaster's ids: each toast its own.
  let shown = 0;
  return { toast: { error: vi.fn(() => `error#${++shown}`), success: vi.fn(), dismiss: vi.fn() } };
});

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
    await expect(result.current(() => Promise.reject(gone), undefined, { key: 'delete 9' })).rejects.toBe(gone);
    expect(toast.error).toHaveBeenCalledWith(GONE_MEANWHILE);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['own'] });
  });

  const changeOf = (queryKey: string[]) =>
    renderHook(() => useChange(queryKey), {
      wrapper: ({ children }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>,
    }).result.current;
  const offline = () => Promise.reject(new TypeError('Failed to fetch'));
  const failureIds = () => vi.mocked(toast.error).mock.results.map((result) => result.value as string);

  it('a change that works takes away the toast of its own earlier failure, and no other change’s (decision 150)', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    const change = changeOf(['own']);
    await expect(change(offline, 'Deleted A.', { key: 'delete 1' })).rejects.toThrow();
    await expect(change(offline, 'Deleted B.', { key: 'delete 2' })).rejects.toThrow();
    // The same key in another list is another change.
    await expect(changeOf(['saved'])(offline, 'Deleted C.', { key: 'delete 1' })).rejects.toThrow();
    const [a] = failureIds();
    expect(toast.dismiss).not.toHaveBeenCalled();

    await change(() => Promise.resolve(), 'Deleted A.', { key: 'delete 1' });
    expect(vi.mocked(toast.dismiss).mock.calls).toEqual([[a]]);
    expect(toast.success).toHaveBeenCalledWith('Deleted A.');
    // Once: working again takes nothing more away.
    await change(() => Promise.resolve(), 'Deleted A.', { key: 'delete 1' });
    // An Undo's change, which has no key, or a change with another, takes nothing away: B and C still failed.
    await change(() => Promise.resolve(), 'Deleted B.', AS_AN_UNDO);
    // A change a person can press again cannot be written without its key (tsc refuses it).
    // @ts-expect-error -- the key is required
    await change(() => Promise.resolve(), 'Deleted B.', {});
    await change(() => Promise.resolve(), 'Deleted D.', { key: 'delete 4' });
    expect(vi.mocked(toast.dismiss).mock.calls).toEqual([[a]]);
  });

  it('a newer failure of a change replaces its older one, said in place too (an edit changed meanwhile)', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    const change = changeOf(['own']);
    await expect(change(offline, 'Message saved.', { key: 'edit 5' })).rejects.toThrow();
    const busy = () => Promise.reject(new ApiError(503, null));
    await expect(change(busy, 'Message saved.', { key: 'edit 5' })).rejects.toThrow();
    const [offlineToast, busyToast] = failureIds();
    expect(vi.mocked(toast.dismiss).mock.calls).toEqual([[offlineToast]]);
    const saidInPlace = () => true;
    await expect(change(busy, 'Message saved.', { key: 'edit 5', saidInPlace })).rejects.toThrow();
    expect(vi.mocked(toast.dismiss).mock.calls).toEqual([[offlineToast], [busyToast]]);
    expect(toast.error).toHaveBeenCalledTimes(2);
  });
});
