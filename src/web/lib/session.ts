import { useSyncExternalStore } from 'react';
import { PENDING_RECORDS_STORAGE_KEY } from './pending-records';
import { SESSION } from './session-keys';
import { THEME_STORAGE_KEY } from './theme';
import type { CurrentUser, TokenPair } from '@shared/contract';

// The browser's session, kept in localStorage (docs/product/accounts.md#session-in-the-browser). Other tabs see
// every change through the storage event, so a logout in one tab ends the session in all of them.

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
  const access = localStorage.getItem(KEYS.access);
  if (!access) return ANONYMOUS;
  const id = Number.parseInt(localStorage.getItem(KEYS.id) ?? '', 10);
  return {
    isAuthenticated: true,
    access,
    refresh: localStorage.getItem(KEYS.refresh),
    id: Number.isFinite(id) ? id : null,
    email: localStorage.getItem(KEYS.email),
    user: parseUser(localStorage.getItem(KEYS.user)),
  };
}

// The build pre-renders the home page in Node, where there is no storage: signed out there.
let current: Session = typeof window === 'undefined' ? ANONYMOUS : read();
const listeners = new Set<() => void>();

function publish() {
  current = read();
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(KEYS).includes(event.key as never)) publish();
  });
}

export const sessionStore = {
  get: () => current,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * After login: keep the token pair, the user id (read from the access token) and the address the
   * person logged in with, so every page can say who is signed in before their profile has loaded.
   */
  setTokens(tokens: TokenPair, email: string) {
    localStorage.setItem(KEYS.access, tokens.access);
    localStorage.setItem(KEYS.refresh, tokens.refresh);
    localStorage.setItem(KEYS.email, email);
    const userId = userIdFromToken(tokens.access);
    if (userId !== null) localStorage.setItem(KEYS.id, String(userId));
    publish();
  },
  setAccess(access: string) {
    localStorage.setItem(KEYS.access, access);
    publish();
  },
  setUser(user: CurrentUser) {
    localStorage.setItem(KEYS.user, JSON.stringify(user));
    localStorage.setItem(KEYS.id, String(user.id));
    localStorage.setItem(KEYS.email, user.email);
    publish();
  },
  /**
   * Returning to unauthenticated clears local storage — the tokens, and the playlist, settings and
   * notices of the person who used the device — but for KEPT_KEYS.
   */
  clear() {
    const kept = KEPT_KEYS.map((key) => [key, localStorage.getItem(key)] as const);
    localStorage.clear();
    for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
    publish();
  },
  /** Re-reads storage, e.g. after a test or another script changed it. */
  reload: publish,
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

export const useSession = () => useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
