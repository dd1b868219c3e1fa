import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { apiRequest } from './api-client';
import { sessionStore } from './session';
import { SESSION_EXPIRED_MESSAGE, startSessionLifecycle } from './session-refresh';

// The server is outside the web app: fetch answers as it would.
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** An access token as the server signs it (the web app reads its claims, never its signature). */
const accessToken = (expiresInSeconds: number) =>
  `h.${btoa(JSON.stringify({ user_id: 3, exp: Math.floor(Date.now() / 1000) + expiresInSeconds })).replace(/=+$/, '')}.s`;

interface Call {
  url: string;
  auth: string | null;
  body: unknown;
}

function serverAnswering(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      const call = {
        url,
        auth: headers.get('Authorization'),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

describe('session lifecycle', () => {
  let navigateTo: ReturnType<typeof vi.fn<(to: string) => void>>;
  let stop: () => void;
  beforeEach(() => {
    navigateTo = vi.fn<(to: string) => void>();
    vi.spyOn(toast, 'error');
  });
  afterEach(() => {
    stop?.();
    sessionStore.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks for the profile of a session restored without one (a reload right after login)', async () => {
    sessionStore.setTokens({ access: 'a1', refresh: 'r1' }, 'staff@example.com');
    const staff = { id: 3, email: 'staff@example.com', first_name: '', last_name: '', is_staff: true };
    const calls = serverAnswering(({ url }) =>
      url === '/api/users/me/' ? json(200, staff) : json(200, { access: 'a2' }),
    );
    stop = startSessionLifecycle(navigateTo);
    await vi.waitFor(() => expect(sessionStore.get().user).toEqual(staff));
    expect(calls.filter((call) => call.url === '/api/users/me/')).toHaveLength(1);
  });

  it('keeps a stored profile without asking again', async () => {
    sessionStore.setTokens({ access: 'a1', refresh: 'r1' }, 'member@example.com');
    sessionStore.setUser({ id: 3, email: 'member@example.com', first_name: 'Ada', last_name: '', is_staff: false });
    const calls = serverAnswering(() => json(200, { access: 'a2' }));
    stop = startSessionLifecycle(navigateTo);
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(calls.map((call) => call.url)).toEqual(['/api/jwt/refresh/']);
  });

  it('renews a restored access token at start only when it is old, and asks for the profile again', async () => {
    const member = { id: 3, email: 'member@example.com', first_name: 'Mira', last_name: '', is_staff: false };
    const calls = serverAnswering(({ url }) =>
      url === '/api/users/me/' ? json(200, member) : json(200, { access: 'a2' }),
    );
    // A page opened just after login renews nothing; the profile it kept (renamed on another device
    // since) is the server's once it has asked.
    sessionStore.setTokens({ access: accessToken(290), refresh: 'r1' }, member.email);
    sessionStore.setUser({ ...member, first_name: 'Old' });
    stop = startSessionLifecycle(navigateTo);
    await vi.waitFor(() => expect(sessionStore.get().user).toEqual(member));
    expect(calls.map((call) => call.url)).toEqual(['/api/users/me/']);
    // Without its profile, the page asks for it with the token it has.
    stop();
    localStorage.removeItem('user.user');
    sessionStore.reload();
    stop = startSessionLifecycle(navigateTo);
    await vi.waitFor(() => expect(sessionStore.get().user).toEqual(member));
    expect(calls.map((call) => call.url)).toEqual(['/api/users/me/', '/api/users/me/']);

    // A token about to expire (or already expired, or unreadable) is renewed first.
    stop();
    sessionStore.setTokens({ access: accessToken(40), refresh: 'r1' }, member.email);
    stop = startSessionLifecycle(navigateTo);
    await vi.waitFor(() => expect(sessionStore.get().access).toBe('a2'));
    await vi.waitFor(() => expect(calls).toHaveLength(4));
    expect(calls.map((call) => call.url).slice(2)).toEqual(['/api/jwt/refresh/', '/api/users/me/']);
  });

  it('renews an access token the server refused once, and retries the call with it', async () => {
    sessionStore.setTokens({ access: 'old', refresh: 'r1' }, 'member@example.com');
    stop = startSessionLifecycle(navigateTo);
    const calls = serverAnswering(({ url, auth }) => {
      if (url === '/api/jwt/refresh/') return json(200, { access: 'new' });
      return auth === 'Bearer new'
        ? json(200, { ok: true })
        : json(401, { detail: 'Given token not valid for any token type', code: 'token_not_valid' });
    });
    await expect(apiRequest('/api/user/profile/')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => `${c.url} ${c.auth ?? ''}`)).toContain('/api/user/profile/ Bearer new');
    expect(calls.find((c) => c.url === '/api/jwt/refresh/')?.body).toEqual({ refresh: 'r1' });
    expect(sessionStore.get().access).toBe('new');
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('ends the session when the refresh token is refused: toast, storage cleared, to login', async () => {
    window.history.replaceState(null, '', '/music?tab=bonus');
    sessionStore.setTokens({ access: 'a', refresh: 'revoked' }, 'member@example.com');
    stop = startSessionLifecycle(navigateTo);
    serverAnswering(() => json(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' }));
    await expect(apiRequest('/api/user/profile/')).rejects.toMatchObject({ status: 401 });
    expect(toast.error).toHaveBeenCalledWith(SESSION_EXPIRED_MESSAGE, expect.anything());
    expect(localStorage.getItem('user.access')).toBeNull();
    expect(localStorage.getItem('user.refresh')).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith('/login?redirect=%2Fmusic%3Ftab%3Dbonus');
    window.history.replaceState(null, '', '/');
  });

  it('keeps the session when the server cannot be reached', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    stop = startSessionLifecycle(navigateTo);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await expect(apiRequest('/api/user/profile/')).rejects.toThrow('Failed to fetch');
    expect(sessionStore.get().isAuthenticated).toBe(true);
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('keeps the session when the refresh answer is cut off or the server is busy', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    // A 200 whose body never arrives whole: the connection was lost while it came.
    const cutOff = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"acc'));
            controller.error(new DOMException('The user aborted a request.', 'AbortError'));
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    const answers = [cutOff, () => json(429, { detail: 'Request was throttled.' }), () => json(408)];
    let refreshes = 0;
    const calls = serverAnswering(({ url }) =>
      url === '/api/jwt/refresh/' ? answers[Math.min(refreshes++, answers.length - 1)]!() : json(401),
    );
    stop = startSessionLifecycle(navigateTo);
    for (let call = 0; call < answers.length; call += 1)
      await expect(apiRequest('/api/user/profile/')).rejects.toMatchObject({ status: 401 });
    expect(calls.filter((call) => call.url === '/api/jwt/refresh/').length).toBeGreaterThanOrEqual(answers.length);
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, access: 'a', refresh: 'r' });
    expect(navigateTo).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('refreshes every 30 s while signed in and stops when another tab logs out', async () => {
    vi.useFakeTimers();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const calls = serverAnswering(() => json(200, { access: 'fresh' }));
    stop = startSessionLifecycle(navigateTo);
    await vi.advanceTimersByTimeAsync(0);
    const afterStart = calls.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls.length).toBe(afterStart + 1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls.length).toBe(afterStart + 2);

    // Another tab cleared the shared storage.
    for (const key of ['user.access', 'user.refresh']) localStorage.removeItem(key);
    window.dispatchEvent(new StorageEvent('storage', { key: 'user.access' }));
    await vi.advanceTimersByTimeAsync(90_000);
    expect(calls.length).toBe(afterStart + 2);
    expect(sessionStore.get().isAuthenticated).toBe(false);
  });

  /** What another tab does to the shared storage when it signs out and signs Bea in, with its storage event here. */
  function otherTabSignsInBea() {
    localStorage.clear();
    localStorage.setItem('user.refresh', 'r2');
    localStorage.setItem('user.access', 'b');
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
  }

  it('neither renews nor ends the session another tab signed in while a call it refused was on its way', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    stop = startSessionLifecycle(navigateTo);
    const calls = serverAnswering((call) => {
      if (call.url === '/api/jwt/refresh/') return json(200, { access: 'b2' });
      // Ada's call is refused, and meanwhile another tab signed out and signed Bea in.
      if (call.auth === 'Bearer a') otherTabSignsInBea();
      return json(401, { detail: 'Given token not valid for any token type' });
    });
    await expect(apiRequest('/api/profile/', { method: 'PATCH', body: { first_name: 'Ada' } })).rejects.toThrow();
    // Ada's words are never sent in Bea's session, nor is Bea's refresh token traded for Ada's call.
    expect(calls.map((call) => `${call.url} ${call.auth ?? ''}`)).toEqual(['/api/profile/ Bearer a']);
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, access: 'b', refresh: 'r2' });
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('does not end the session another tab signed in while a renewed call was sent again and refused', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    stop = startSessionLifecycle(navigateTo);
    serverAnswering((call) => {
      if (call.url === '/api/jwt/refresh/') return json(200, { access: 'a2' });
      // Sent again with the renewed token, refused (Ada signed out from another browser); meanwhile Bea signed in.
      if (call.auth === 'Bearer a2') otherTabSignsInBea();
      return json(401, { detail: 'Given token not valid for any token type' });
    });
    await expect(apiRequest('/api/user/profile/')).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, access: 'b', refresh: 'r2' });
    expect(localStorage.getItem('user.refresh')).toBe('r2');
    expect(navigateTo).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('ends neither the session another tab signed in while a refresh was asked, nor sends the call again in it', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    stop = startSessionLifecycle(navigateTo);
    const calls = serverAnswering((call) => {
      if (call.url.includes('/api/jwt/refresh/')) {
        // Meanwhile another tab signed out, and signed someone else in.
        localStorage.clear();
        localStorage.setItem('user.access', 'b');
        localStorage.setItem('user.refresh', 'r2');
        window.dispatchEvent(new StorageEvent('storage', { key: null }));
        return json(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' });
      }
      return json(401, { detail: 'Given token not valid for any token type' });
    });
    await expect(apiRequest('/api/profile/', { method: 'PATCH', body: { first_name: 'Ada' } })).rejects.toThrow();
    expect(calls.filter((call) => call.url === '/api/profile/').map((call) => call.auth)).toEqual(['Bearer a']);
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, access: 'b', refresh: 'r2' });
    expect(navigateTo).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });
});
