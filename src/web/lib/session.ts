import { useSyncExternalStore } from 'react';
import { browserStorage } from './browser-storage';
import { PENDING_RECORDS_STORAGE_KEY } from './pending-records';
import { SESSION } from './session-keys';
import { THEME_STORAGE_KEY } from './theme';
import type { CurrentUser, TokenPair } from '@shared/contract';

// The browser's session, kept in localStorage (docs/product/accounts.md#session-in-the-browser). Other tabs see
// every change through the storage event, so a logout in one tab ends the session in all of them. A browser that
// will not store it keeps it in memory, for the tab (lib/browser-storage.ts).

export interface Session {
  isAuthenticated: boolean;
  id: number | null;
  email: string | null;
  access: string | null;
  refresh: string | null;
  user: CurrentUser | null;
}

const KEYS = SESSION.storageKeys;
/**
 * Kept when a session ends: what belongs to the device, not to the person signed in (the theme), and the
 * records of sessions not yet sent, each its person's and sent only to them (lib/pending-records.ts).
 */
const KEPT_KEYS = [THEME_STORAGE_KEY, PENDING_RECORDS_STORAGE_KEY];
const ANONYMOUS: Session = { isAuthenticated: false, id: null, email: null, access: null, refresh: null, user: null };

function parseUser(raw: string | null): CurrentUser | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as CurrentUser;
  } catch {
    return null;
  }
}

function read(): Session {
  const access = browserStorage.get(KEYS.access);
  if (!access) return ANONYMOUS;
  const id = Number.parseInt(browserStorage.get(KEYS.id) ?? '', 10);
  return {
    isAuthenticated: true,
    access,
    refresh: browserStorage.get(KEYS.refresh),
    id: Number.isFinite(id) ? id : null,
    email: browserStorage.get(KEYS.email),
    user: parseUser(browserStorage.get(KEYS.user)),
  };
}

/** Whose a stored session is: the id stored, else its access token's (another tab's login writes its keys one by one). */
const personOf = (session: Session): number | null =>
  session.access === null ? null : (session.id ?? userIdFromToken(session.access));

// The build pre-renders the home page in Node, where there is no storage: signed out there.
let current: Session = typeof window === 'undefined' ? ANONYMOUS : read();
const listeners = new Set<() => void>();
/** Whether the last change came from another tab (the storage event), not from this one. */
let changedInOtherTab = false;

function publish(fromOtherTab = false) {
  current = read();
  changedInOtherTab = fromOtherTab;
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(KEYS).includes(event.key as never)) publish(true);
  });
}

export const sessionStore = {
  get: () => current,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Whether the last change came from another tab: another person signed in there is not this tab's doing. */
  changedInOtherTab: () => changedInOtherTab,
  /**
   * After login: keep the token pair, the user id (read from the access token) and the address the
   * person logged in with, so every page can say who is signed in before their profile has loaded.
   * Returns false when the browser would not store them: the session then lasts as long as the tab.
   */
  setTokens(tokens: TokenPair, email: string): boolean {
    const userId = userIdFromToken(tokens.access);
    // A login over another person's session, which another tab signed in after this one showed its login form:
    // what is stored for that person (their profile, playlist, settings, a change not yet synced) is not this
    // one's, and goes as at a sign-out.
    const before = read();
    if (before.isAuthenticated && personOf(before) !== userId) browserStorage.clear(KEPT_KEYS);
    if (userId === null) browserStorage.remove(KEYS.id);
    // The access token last, as it is what says "signed in" to other tabs: should any other write be refused, it
    // stays in memory too, so that no tab finds half a session.
    const entries: [string, string][] = [
      ...(userId === null ? [] : [[KEYS.id, String(userId)] as [string, string]]),
      [KEYS.refresh, tokens.refresh],
      [KEYS.email, email],
    ];
    let stored = true;
    for (const [key, value] of entries) stored = browserStorage.set(key, value) && stored;
    if (stored) stored = browserStorage.set(KEYS.access, tokens.access);
    else browserStorage.hold(KEYS.access, tokens.access);
    publish();
    return stored;
  },
  setAccess(access: string) {
    // A session the browser would not store stays in memory, where other tabs do not take it from.
    if (browserStorage.heldInMemory(KEYS.access)) browserStorage.hold(KEYS.access, access);
    else browserStorage.set(KEYS.access, access);
    publish();
  },
  /**
   * Keeps the profile of the person signed in. Nothing when the stored session is no longer theirs: a profile asked
   * for before another tab signed out (or signed someone else in) would make half a session, or another person's.
   */
  setUser(user: CurrentUser) {
    const stored = read();
    const person = personOf(stored);
    if (!stored.isAuthenticated || (person !== null && person !== user.id)) return;
    browserStorage.set(KEYS.user, JSON.stringify(user));
    browserStorage.set(KEYS.id, String(user.id));
    browserStorage.set(KEYS.email, user.email);
    publish();
  },
  /**
   * Returning to unauthenticated clears local storage — the tokens, and the playlist, settings and
   * notices of the person who used the device — but for KEPT_KEYS.
   */
  clear() {
    browserStorage.clear(KEPT_KEYS);
    publish();
  },
  /**
   * Ends the session whose refresh token is `refresh` (the one a tab read when it began to sign out, or sent the
   * call the server refused) as clear() does. A session another tab has signed in since is another (its refresh
   * token differs) and stays, and so does all that is stored for it: returns false, nothing cleared.
   */
  end(refresh: string | null): boolean {
    // Storage itself, not what this tab last heard of it: another tab's write may not have been told here yet.
    if (browserStorage.get(KEYS.refresh) !== refresh) return false;
    sessionStore.clear();
    return true;
  },
  /** Re-reads storage, e.g. after a test or another script changed it. */
  reload: () => publish(),
};

/** A JWT's payload, without verifying it (the server does that); null when it cannot be read. */
function tokenPayload(token: string): Record<string, unknown> | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The `user_id` claim of a JWT. */
export function userIdFromToken(token: string): number | null {
  const userId = tokenPayload(token)?.user_id;
  return typeof userId === 'number' ? userId : null;
}

/** When a JWT expires (its `exp` claim, in ms), or null when it does not say. */
export function tokenExpiresAt(token: string): number | null {
  const exp = tokenPayload(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/**
 * Whether the stored access token is good until after the next timed refresh (lib/session-refresh.ts): a page
 * opened right after login, or a link followed in the portal, needs no refresh of its own at start.
 */
export function accessOutlivesNextRefresh(): boolean {
  const { access } = sessionStore.get();
  const expiresAt = access ? tokenExpiresAt(access) : null;
  return expiresAt !== null && expiresAt - Date.now() > 2 * SESSION.refreshIntervalMs;
}

export const useSession = () => useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
