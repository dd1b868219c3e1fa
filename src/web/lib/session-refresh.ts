import { toastProblem } from './toast-problem';
import { SESSION } from './session-keys';
import type { CurrentUser, TokenRefreshResponse } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { loginWithRedirect, paths } from './paths';
import { accessOutlivesNextRefresh, sessionStore } from './session';

// The session's life in the browser (docs/product/accounts.md#session-in-the-browser): restored from
// storage before the first render, its access token refreshed every 30 s, and ended in one place when
// the server stops accepting it.

export const SESSION_EXPIRED_MESSAGE = 'Your session expired. Please log in again!';

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);

/**
 * A failed refresh or a refused token: toast, storage cleared, to login. `refresh` names the session that failed:
 * one another tab signed in since is not ended for it (lib/session.ts `end`).
 */
export function expireSession(refresh: string | null): void {
  const session = sessionStore.get();
  if (!session.isAuthenticated || session.refresh !== refresh) return;
  toastProblem(SESSION_EXPIRED_MESSAGE, { id: 'session-expired' });
  // Back to the same page after logging in again, as the route guard would do.
  const { pathname, search, hash } = window.location;
  const here = pathname + search + hash;
  navigate(
    pathname === paths.home || pathname === paths.login || pathname === paths.logout
      ? paths.login
      : loginWithRedirect(here),
  );
  sessionStore.end(refresh);
}

/**
 * 'replaced': another tab signed out and in meanwhile (the stored refresh token is another): the answer is of a
 * session this tab no longer has, and the call it was for is not sent again, since the session now stored may be
 * another person's; nor is that session ended.
 */
export type RefreshOutcome = 'refreshed' | 'rejected' | 'unreachable' | 'replaced';

/** The refresh under way, and the refresh token it trades. */
let inFlight: { refresh: string | null; outcome: Promise<RefreshOutcome> } | null = null;

/** The outcome of a refresh whose session another tab ended (and maybe replaced) while it was asked. */
const changedMeanwhile = (): RefreshOutcome => (sessionStore.get().refresh === null ? 'rejected' : 'replaced');

/** The answers that refuse a refresh token: malformed (400), invalid, expired or revoked (401). */
const REFUSALS = [400, 401];

/**
 * Trades the refresh token `refresh`, the session's the caller read, for a new access token. 'rejected' when the
 * server refused it, 'unreachable' when it could not be asked (offline): only a refusal ends the session. Another
 * session stored by then (another tab signed out, maybe in) is not refreshed for it: its person is not the caller's.
 * Concurrent callers of one session share one request.
 */
export function refreshAccessToken(refresh: string | null): Promise<RefreshOutcome> {
  if (inFlight?.refresh === refresh) return inFlight.outcome;
  const outcome = (async (): Promise<RefreshOutcome> => {
    if (sessionStore.get().refresh !== refresh) return changedMeanwhile();
    if (!refresh) return 'rejected';
    let response: Response;
    try {
      response = await fetch(API.tokenRefresh, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh }),
      });
    } catch {
      return 'unreachable';
    }
    // Only the server's refusal of the token ends the session. A busy server (429, 408, 5xx), or an
    // answer cut off on its way (the connection lost mid-body), is asked again later: reading either
    // as a refusal cleared storage and signed the person out.
    // Nor end a session another tab signed in meanwhile, for the refusal of the one it replaced.
    if (sessionStore.get().refresh !== refresh) return changedMeanwhile();
    if (REFUSALS.includes(response.status)) return 'rejected';
    if (!response.ok) return 'unreachable';
    let body: Partial<TokenRefreshResponse> | null;
    try {
      body = (await response.json()) as Partial<TokenRefreshResponse> | null;
    } catch {
      return 'unreachable';
    }
    // An answer without a token gives nothing to go on with.
    if (typeof body?.access !== 'string') return 'rejected';
    // Another tab may have logged out meanwhile: never bring a cleared session back.
    if (sessionStore.get().refresh !== refresh) return changedMeanwhile();
    sessionStore.setAccess(body.access);
    return 'refreshed';
  })().finally(() => {
    if (inFlight?.outcome === outcome) inFlight = null;
  });
  inFlight = { refresh, outcome };
  return outcome;
}

let timer: ReturnType<typeof setInterval> | null = null;

async function tick(): Promise<void> {
  const { refresh } = sessionStore.get();
  if ((await refreshAccessToken(refresh)) === 'rejected') expireSession(refresh);
}

function sync(): void {
  const signedIn = sessionStore.get().isAuthenticated;
  if (signedIn && timer === null) {
    timer = setInterval(() => void tick(), SESSION.refreshIntervalMs);
  } else if (!signedIn && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

/** The signed-in person's profile, asked for with an access token that is still good. */
async function restoreUser(): Promise<void> {
  const { refresh } = sessionStore.get();
  if (!accessOutlivesNextRefresh() && (await refreshAccessToken(refresh)) !== 'refreshed') return;
  try {
    const response = await fetch(API.me, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${sessionStore.get().access}` },
    });
    const user = response.ok ? ((await response.json().catch(() => null)) as CurrentUser | null) : null;
    // Logged out, or in as someone else, meanwhile: that session is not this profile's.
    if (user && sessionStore.get().refresh === refresh) sessionStore.setUser(user);
  } catch {
    // Offline: the next page load asks again.
  }
}

/**
 * Follows the session: the refresh timer runs exactly while someone is signed in, in this tab or
 * (through the storage event) another. `navigateTo` is the router's, so an expired session goes to
 * login without a page load. Returns a stop function.
 */
export function startSessionLifecycle(navigateTo: Navigate): () => void {
  navigate = navigateTo;
  const unsubscribe = sessionStore.subscribe(sync);
  sync();
  // A restored access token may be older than its 5 minutes: renew it straight away.
  if (sessionStore.get().isAuthenticated && !accessOutlivesNextRefresh()) void tick();
  // The profile the session keeps (the name, the address, staff or not) is asked for again at every start:
  // a page loaded before the login's profile came has none, and one changed on another device, or by
  // staff, would otherwise show until the next login.
  if (sessionStore.get().isAuthenticated) void restoreUser();
  return () => {
    unsubscribe();
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
}
