import { QueryClient, queryOptions } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as EarlyReadsModule from './early-reads';
import type * as SessionModule from './session';
import type * as ApiClientModule from './api-client';

// The module keeps the reads of the page's one visit: each test loads it afresh, with the session and client it uses.
let early: typeof EarlyReadsModule;
let session: typeof SessionModule.sessionStore;
let apiRequest: typeof ApiClientModule.apiRequest;
let fromQuery: typeof ApiClientModule.fromQuery;

/** An access token as the server signs it (the web app reads its claims, never its signature). */
const accessToken = (name: string, expiresInSeconds: number) =>
  `${name}.${btoa(JSON.stringify({ user_id: 3, exp: Math.floor(Date.now() / 1000) + expiresInSeconds })).replace(/=+$/, '')}.s`;
const FRESH = accessToken('fresh', 290);

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** The server is outside the web app: fetch answers as it would, each answer when the test lets it go. */
function server(answer: (url: string, auth: string) => Response) {
  const calls: string[] = [];
  let held: Promise<void> = Promise.resolve();
  let release = () => {};
  const api = {
    calls,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const auth = new Headers(init.headers).get('Authorization') ?? '';
      calls.push(`${url} ${auth.replace(/^Bearer (\w+)\..*$/, '$1')}`.trim());
      if (url !== '/api/jwt/refresh/') await held;
      return answer(url, auth);
    }),
  );
  return api;
}

const query = (name: string) =>
  queryOptions({
    queryKey: [name],
    queryFn: (context) => apiRequest<{ name: string }>(`/api/${name}/`, fromQuery(context)),
  });
/** A query whose function awaits something of its own (a module, a stored value) before it asks. */
const awaitingFirst = (name: string) =>
  queryOptions({
    queryKey: [name],
    queryFn: async (context) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return apiRequest<{ name: string }>(`/api/${name}/`, fromQuery(context));
    },
  });
/** A query whose answer calls for another: the plan, then what it includes. */
const planThen = (includes: boolean) => ({
  ...query('plan'),
  next: () => (includes ? [query('recommendations')] : []),
});

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });

beforeEach(async () => {
  vi.resetModules();
  early = await import('./early-reads');
  session = (await import('./session')).sessionStore;
  ({ apiRequest, fromQuery } = await import('./api-client'));
  session.setTokens({ access: FRESH, refresh: 'r1' }, 'member@example.com');
});
afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

describe('early reads', () => {
  it('asks for each query once, and the app takes the answers into its cache instead of asking again', async () => {
    const api = server((url) => json(200, { name: url }));
    api.hold();
    void early.startEarlyReads([query('onboarding'), planThen(true)]);
    await vi.waitFor(() => expect(api.calls).toEqual(['/api/onboarding/ fresh', '/api/plan/ fresh']));
    // The app starts while the answers are on their way: its queries and its router's share them.
    const cache = client();
    early.adoptEarlyReads(cache);
    const asked = Promise.all([
      cache.fetchQuery(query('onboarding')),
      early.prefetch(cache, planThen(true)),
      cache.prefetchQuery(query('onboarding')),
    ]);
    api.release();
    await asked;
    // The plan's answer called for the recommendations: read once, into the app's cache.
    await vi.waitFor(() => expect(cache.getQueryData(['recommendations'])).toEqual({ name: '/api/recommendations/' }));
    expect(cache.getQueryData(['onboarding'])).toEqual({ name: '/api/onboarding/' });
    expect(cache.getQueryData(['plan'])).toEqual({ name: '/api/plan/' });
    expect(api.calls).toEqual(['/api/onboarding/ fresh', '/api/plan/ fresh', '/api/recommendations/ fresh']);
  });

  it('asks for what an answer calls for only when it does', async () => {
    const api = server((url) => json(200, { name: url }));
    await early.startEarlyReads([planThen(false)]);
    await vi.waitFor(() => expect(api.calls).toEqual(['/api/plan/ fresh']));
    const cache = client();
    early.adoptEarlyReads(cache);
    await early.prefetch(cache, planThen(false));
    expect(cache.getQueryData(['plan'])).toEqual({ name: '/api/plan/' });
    expect(cache.getQueryData(['recommendations'])).toBeUndefined();
    expect(api.calls).toEqual(['/api/plan/ fresh']);
  });

  it('leaves a refused token to the app, which renews it and asks again as it always does', async () => {
    const api = server((url, auth) => {
      if (url === '/api/jwt/refresh/') return json(200, { access: accessToken('renewed', 290) });
      return auth.startsWith('Bearer renewed') ? json(200, { name: url }) : json(401, { detail: 'Token is invalid' });
    });
    await early.startEarlyReads([query('onboarding')]);
    await vi.waitFor(() => expect(api.calls).toEqual(['/api/onboarding/ fresh']));
    // The page itself neither renews nor ends the session.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls).toEqual(['/api/onboarding/ fresh']);
    expect(session.get()).toMatchObject({ isAuthenticated: true, access: FRESH });
    const cache = client();
    early.adoptEarlyReads(cache);
    await expect(cache.fetchQuery(query('onboarding'))).resolves.toEqual({ name: '/api/onboarding/' });
    expect(api.calls).toEqual([
      '/api/onboarding/ fresh',
      '/api/onboarding/ fresh',
      '/api/jwt/refresh/',
      '/api/onboarding/ renewed',
    ]);
  });

  it('leaves a refused token to the app from a query that awaits before it asks', async () => {
    const api = server((url, auth) => {
      if (url === '/api/jwt/refresh/') return json(200, { access: accessToken('renewed', 290) });
      return auth.startsWith('Bearer renewed') ? json(200, { name: url }) : json(401, { detail: 'Token is invalid' });
    });
    // Loaded now, so a renewal the page began would be asked for within the wait below.
    await import('./session-refresh');
    await early.startEarlyReads([awaitingFirst('later'), query('onboarding')]);
    await vi.waitFor(() => expect([...api.calls].sort()).toEqual(['/api/later/ fresh', '/api/onboarding/ fresh']));
    // Neither renewed nor ended by the page.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls).toHaveLength(2);
    expect(session.get()).toMatchObject({ isAuthenticated: true, access: FRESH });
    const cache = client();
    early.adoptEarlyReads(cache);
    // The app asks each again, renews the token once for both and asks with the new one.
    await expect(cache.fetchQuery(awaitingFirst('later'))).resolves.toEqual({ name: '/api/later/' });
    await expect(cache.fetchQuery(query('onboarding'))).resolves.toEqual({ name: '/api/onboarding/' });
    expect(api.calls.filter((call) => call === '/api/jwt/refresh/')).toHaveLength(1);
    expect(api.calls.filter((call) => call.endsWith(' renewed')).sort()).toEqual([
      '/api/later/ renewed',
      '/api/onboarding/ renewed',
    ]);
  });

  it('renews a token about to expire first, in the refresh the app then shares, and reads nothing when it cannot', async () => {
    session.setTokens({ access: accessToken('old', 40), refresh: 'r1' }, 'member@example.com');
    let refused = false;
    const api = server((url) =>
      url === '/api/jwt/refresh/'
        ? refused
          ? json(401, { detail: 'Token is blacklisted' })
          : json(200, { access: accessToken('renewed', 290) })
        : json(200, { name: url }),
    );
    await early.startEarlyReads([query('onboarding')]);
    await vi.waitFor(() => expect(api.calls).toEqual(['/api/jwt/refresh/', '/api/onboarding/ renewed']));

    vi.resetModules();
    early = await import('./early-reads');
    session = (await import('./session')).sessionStore;
    session.setTokens({ access: accessToken('old', 40), refresh: 'r2' }, 'member@example.com');
    refused = true;
    api.calls.length = 0;
    await early.startEarlyReads([query('onboarding')]);
    expect(api.calls).toEqual(['/api/jwt/refresh/']);
    // Ended by the app, with its toast and its move to login, not here.
    expect(session.get().isAuthenticated).toBe(true);
  });

  it("gives the app none of a session that ended before it started: another person's sign-in asks afresh", async () => {
    const api = server((url, auth) => json(200, { name: url, auth }));
    await early.startEarlyReads([query('onboarding')]);
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    const other = accessToken('other', 290);
    session.setTokens({ access: other, refresh: 'r9' }, 'other@example.com');
    const cache = client();
    early.adoptEarlyReads(cache);
    expect(cache.getQueryData(['onboarding'])).toBeUndefined();
    await expect(cache.fetchQuery(query('onboarding'))).resolves.toEqual({
      name: '/api/onboarding/',
      auth: `Bearer ${other}`,
    });
  });

  it('reads nothing for a visitor', async () => {
    session.clear();
    const api = server((url) => json(200, { name: url }));
    await early.startEarlyReads([query('onboarding'), planThen(true)]);
    expect(api.calls).toEqual([]);
  });
});
