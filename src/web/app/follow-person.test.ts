import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { followPerson } from './app';

const jwtWith = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.s`;

/** What another tab's login writes to the shared storage, key by key, each with its storage event here. */
function signInFromOtherTab(userId: number) {
  for (const [key, value] of [
    ['user.id', String(userId)],
    ['user.refresh', `r${userId}`],
    ['user.email', `${userId}@example.com`],
    ['user.access', jwtWith({ user_id: userId })],
  ] as const) {
    localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent('storage', { key }));
  }
}

function signOutFromOtherTab() {
  localStorage.clear();
  window.dispatchEvent(new StorageEvent('storage', { key: null }));
}

describe('followPerson', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    sessionStore.clear();
  });

  it('drops what the tab read for one person when they sign out and another signs in in the same tab', () => {
    sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'ada@example.com');
    const queryClient = new QueryClient();
    const reload = vi.fn();
    stop = followPerson(queryClient, reload);
    queryClient.setQueryData(['profile'], { user_email: 'ada@example.com' });
    sessionStore.setAccess(jwtWith({ user_id: 7 }));
    expect(queryClient.getQueryData(['profile'])).toEqual({ user_email: 'ada@example.com' });

    sessionStore.clear();
    expect(queryClient.getQueryData(['profile'])).toBeUndefined();
    sessionStore.setTokens({ access: jwtWith({ user_id: 8 }), refresh: 'r2' }, 'bea@example.com');
    expect(reload).not.toHaveBeenCalled();
  });

  it('loads the tab again when another tab signs in someone else over the person it showed', () => {
    signInFromOtherTab(7);
    const queryClient = new QueryClient();
    const reload = vi.fn();
    stop = followPerson(queryClient, reload);
    queryClient.setQueryData(['profile'], { user_email: 'ada@example.com' });

    // Straight over it (a login form another tab still showed), or after signing out: either way, another person.
    signInFromOtherTab(8);
    expect(queryClient.getQueryData(['profile'])).toBeUndefined();
    expect(reload).toHaveBeenCalledTimes(1);
    signOutFromOtherTab();
    signInFromOtherTab(9);
    expect(reload).toHaveBeenCalledTimes(2);
    // The same person again: nothing to load.
    signOutFromOtherTab();
    signInFromOtherTab(9);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('sends a tab that was signing out to the player when another tab signs someone else in, not to /logout again', () => {
    signInFromOtherTab(7);
    window.history.replaceState(null, '', '/logout');
    const reload = vi.fn();
    stop = followPerson(new QueryClient(), reload);
    signInFromOtherTab(8);
    expect(reload).toHaveBeenCalledWith('/subliminals');
    window.history.replaceState(null, '', '/');
  });

  it('leaves a tab that showed no one as it is when another tab signs in', () => {
    const reload = vi.fn();
    stop = followPerson(new QueryClient(), reload);
    signInFromOtherTab(7);
    expect(reload).not.toHaveBeenCalled();
  });
});
