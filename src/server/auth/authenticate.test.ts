import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { SignJWT } from 'jose';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { currentUser } from './authenticate';
import { revokeSession } from './sessions';
import { deriveKey } from './tokens';
import { API } from '@shared/contract';

describe('bearer authentication', () => {
  let t: TestApp;
  let user: SignedInUser;
  beforeAll(async () => {
    // The handlers run after `t` exists, so they can reach its pre-handlers.
    const probe: FastifyPluginAsync = async (app) => {
      app.get('/api/probe/me/', { preHandler: (req, reply) => t.ctx.authenticate(req, reply) }, async (request) => ({
        id: currentUser(request).id,
      }));
      app.get('/api/probe/staff/', { preHandler: (req, reply) => t.ctx.authenticateStaff(req, reply) }, async () => ({
        ok: true,
      }));
    };
    t = await createTestApp({}, { plugins: [probe] });
    user = await signedInUser(t.ctx);
  });
  afterAll(() => t.close());

  const get = (url: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  it('admits a live access token', async () => {
    const res = await get('/api/probe/me/', `Bearer ${user.access}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: user.id });
  });

  it('asks for credentials when there are none', async () => {
    const res = await get('/api/probe/me/');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('takes a header of another type (JWT, Basic, Token) or an empty one as no credentials, as SimpleJWT does', async () => {
    for (const authorization of [`JWT ${user.access}`, 'Basic dXNlcjpwYXNz', `Token ${user.access}`, '   ']) {
      const res = await get('/api/probe/me/', authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json(), authorization).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
  });

  it("refuses a Bearer header without exactly one token after it, in SimpleJWT's words", async () => {
    for (const authorization of ['Bearer', 'Bearer  ', `Bearer ${user.access} ${user.access}`]) {
      const res = await get('/api/probe/me/', authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json(), authorization).toEqual({
        detail: 'Authorization header must contain two space-delimited values',
        code: 'bad_authorization_header',
      });
    }
    expect((await get('/api/probe/me/', `bearer ${user.access}`)).statusCode).toBe(200);
  });

  it('never reads a token from the query string', async () => {
    const res = await get(`/api/probe/me/?token=${user.access}&access=${user.access}`);
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['a refresh token', () => user.refresh],
    ['garbage', () => 'not.a.jwt'],
    [
      'a changed payload',
      () => {
        const [header, , signature] = user.access.split('.');
        const payload = Buffer.from(
          JSON.stringify({ token_type: 'access', user_id: user.id + 1, sid: user.sessionId, exp: 9999999999 }),
        ).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      'alg none',
      () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(
          JSON.stringify({ token_type: 'access', user_id: user.id, sid: user.sessionId, exp: 9999999999 }),
        ).toString('base64url');
        return `${header}.${payload}.`;
      },
    ],
  ])('refuses %s with token_not_valid', async (_name, token) => {
    const res = await get('/api/probe/me/', `Bearer ${token()}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'token_not_valid' });
  });

  it('refuses a token signed with another key, or expired', async () => {
    const claims = { token_type: 'access', user_id: user.id, sid: user.sessionId };
    const wrongKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('5m')
      .sign(deriveKey('another-secret-key-of-enough-length-000', 'jwt'));
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(deriveKey(t.config.secretKey, 'jwt'));
    for (const token of [wrongKey, expired]) {
      const res = await get('/api/probe/me/', `Bearer ${token}`);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'token_not_valid' });
    }
  });

  it('refuses a token our key signed whose claims are not of their shape: 401 as any bad token, never a 500', async () => {
    const signed = (claims: Record<string, unknown>) =>
      new SignJWT({ token_type: 'access', user_id: user.id, sid: user.sessionId, ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('5m')
        .sign(deriveKey(t.config.secretKey, 'jwt'));
    for (const claims of [{ sid: 'not-a-session' }, { sid: '' }, { user_id: 1.5 }, { user_id: 2 ** 40 }]) {
      const res = await get('/api/probe/me/', `Bearer ${await signed(claims)}`);
      expect([res.statusCode, res.json().code], JSON.stringify(claims)).toEqual([401, 'token_not_valid']);
    }
  });

  it('refuses staff routes to other users with 403', async () => {
    expect((await get('/api/probe/staff/', `Bearer ${user.access}`)).statusCode).toBe(403);
    const staff = await signedInUser(t.ctx, { isStaff: true });
    expect((await get('/api/probe/staff/', `Bearer ${staff.access}`)).statusCode).toBe(200);
  });

  it('stops admitting the access token of a revoked session at once', async () => {
    const other = await signedInUser(t.ctx);
    await revokeSession(t.database.db, other.sessionId);
    const res = await get('/api/probe/me/', `Bearer ${other.access}`);
    expect(res.statusCode).toBe(401);
    expect((await get('/api/probe/me/', `Bearer ${user.access}`)).statusCode).toBe(200);
  });
});

describe('the sign-in check of every call that takes a body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Each call the contract publishes that takes a body and asks who is calling (signed in or staff). */
  async function callsWithABody() {
    const { paths } = (await t.app.inject({ method: 'GET', url: API.openapi })).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    return Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method, operation]) => method !== 'get' && (operation.security || path.startsWith('/api/admin/')))
        .map(([method, operation]) => ({
          method: method.toUpperCase() as 'POST' | 'PUT' | 'PATCH' | 'DELETE',
          url: path.replace(/\{[^}]+\}/g, '1'),
          staff: !operation.security,
        })),
    );
  }

  it('refuses a stranger, and a member at a staff call, before the body is read: a broken one is never parsed', async () => {
    const member = await signedInUser(t.ctx);
    const calls = await callsWithABody();
    expect(calls.length).toBeGreaterThan(40);
    const broken = { payload: '{"first_name": ', headers: { 'content-type': 'application/json' } };
    for (const { method, url, staff } of calls) {
      const stranger = await t.app.inject({ method, url, ...broken });
      expect([stranger.statusCode, stranger.json()], `${method} ${url}`).toEqual([
        401,
        { detail: 'Authentication credentials were not provided.' },
      ]);
      if (!staff) continue;
      const notStaff = await t.app.inject({
        method,
        url,
        ...broken,
        headers: { ...broken.headers, ...member.headers },
      });
      expect(notStaff.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});
