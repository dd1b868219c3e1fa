import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { API } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { readOutbox } from '../test/eml';
import { users } from '../db/schema';
import { outboxDir } from '../paths';
import { linkParams } from '../auth/test-helpers';
import { loggerOptions, redactUrl } from './logger';

// A whole account flow through an app with production's logger; afterwards, nothing in the log may be
// a credential: no password, token, link part, password hash or query parameter value.

let logText = '';
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logText += chunk.toString();
    done();
  },
});

const SECRET_VALUE = 'private-person@example.com';
const failingQuery: FastifyPluginAsync<{ t: () => TestApp }> = async (app, { t }) => {
  app.get('/api/probe/sql/', async () => t().database.db.execute(sql`select ${SECRET_VALUE}::int`));
};

describe('logs of a whole run', () => {
  let t: TestApp;
  beforeAll(async () => {
    const logger = { ...(loggerOptions('info') as object), stream };
    t = await createTestApp(
      { NODE_ENV: 'production' },
      { logger, plugins: [async (app) => app.register(failingQuery, { t: () => t })] },
    );
  });
  afterAll(() => t.close());

  it('hold no password, token, link or hash', async () => {
    const email = 'hopper@example.com';
    const password = 'Amber-Meadow-Lantern-19';
    const newPassword = 'Copper-Orchard-Whisper-84';
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, payload, headers });
    const mails = async () => {
      await t.ctx.jobs.settled();
      return readOutbox(outboxDir(t.dataDir));
    };

    expect((await post(API.signup, { email, password, re_password: password, accept_terms: true })).statusCode).toBe(
      201,
    );
    const activation = linkParams((await mails())[0]!, 'activation');
    expect((await post(API.activation, activation)).statusCode).toBe(204);
    const pair = (await post(API.tokenCreate, { email, password })).json<{ access: string; refresh: string }>();
    expect((await post(API.tokenRefresh, { refresh: pair.refresh })).statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: `${API.me}?token=${pair.access}&refresh=${pair.refresh}&page=2`,
      headers: { authorization: `Bearer ${pair.access}` },
    });
    expect(me.statusCode).toBe(200);
    expect((await post(API.resetPassword, { email })).statusCode).toBe(204);
    const reset = linkParams(
      (await mails()).find((mail) => mail.subject.includes('Reset'))!,
      'password-reset',
    );
    expect(
      (await post(API.resetPasswordConfirm, { ...reset, new_password: newPassword, re_new_password: newPassword }))
        .statusCode,
    ).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/password-reset/${reset.uid}/${reset.token}` })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/sql/' })).statusCode).toBe(500);
    const second = (await post(API.tokenCreate, { email, password: newPassword })).json<{ access: string }>();
    expect((await post(API.logout, {}, { authorization: `Bearer ${second.access}` })).statusCode).toBe(204);
    await mails();
    const [row] = await t.database.db.select({ hash: users.passwordHash }).from(users);

    // The log is not empty: the requests, the outbox and the failed query are in it.
    expect(logText).toContain('mail written to the outbox');
    expect(logText).toContain('request failed');
    expect(logText).toContain('page=2');
    // One line per request: the call above, answered 200, has exactly one.
    const lines = logText
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            reqId?: string;
            msg: string;
            req?: { url: string };
            res?: { statusCode: number };
            ms?: number;
          },
      );
    const meLine = lines.find((line) => line.req?.url.includes('page=2'));
    expect(meLine).toMatchObject({ msg: 'request', res: { statusCode: 200 }, ms: expect.any(Number) });
    expect(lines.filter((line) => line.reqId === meLine!.reqId)).toHaveLength(1);
    for (const secret of [
      password,
      newPassword,
      pair.access,
      pair.refresh,
      second.access,
      activation.token,
      reset.token,
      row!.hash,
      SECRET_VALUE,
    ]) {
      expect(logText.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
  it('name the URL the client sent, not the one it was routed as', async () => {
    // A page path that does not decode is routed with each % taken literally (routedUrl).
    const res = await t.app.inject({ method: 'GET', url: '/subliminals%ZZ', headers: { accept: 'text/html' } });
    const line = logText
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { reqId?: string; req?: { url: string } })
      .find((logged) => logged.reqId === res.headers['x-request-id']);
    expect(line?.req?.url).toBe('/subliminals%ZZ');
  });

  it('keep the route and the parameter names of a URL, never the values of credentials', () => {
    expect(redactUrl('/api/user/profile/')).toBe('/api/user/profile/');
    expect(redactUrl('/password-reset/MQ/c0ffee-token?next=%2Fmusic')).toBe(
      '/password-reset/[redacted]/[redacted]?next=%2Fmusic',
    );
    // A page's path in another case is the page (it redirects with its token), so it is redacted too.
    expect(redactUrl('/Password-Reset/MQ/c0ffee-token')).toBe('/Password-Reset/[redacted]/[redacted]');
    expect(redactUrl('/EMAIL/Confirm/MQ/c0ffee-token/')).toBe('/EMAIL/Confirm/[redacted]/[redacted]/');
    // A share link's token reads what was shared: its page and its calls keep the route only.
    expect(redactUrl('/s/Ab3-_x?utm=1')).toBe('/s/[redacted]?utm=1');
    expect(redactUrl('/S/Ab3-_x')).toBe('/S/[redacted]');
    expect(redactUrl('/api/shared/Ab3-_x/copy/')).toBe('/api/shared/[redacted]/copy/');
    expect(redactUrl('/subliminals/s/x')).toBe('/subliminals/s/x');
    // …and where a page sends one on, to come back to it after login or sign-up.
    expect(redactUrl('/login?redirect=%2Fs%2FAb3-_x&x=1')).toBe('/login?redirect=/s/[redacted]&x=1');
    expect(redactUrl('/activation/MQ/t?redirect=/s/Ab3-_x')).toBe(
      '/activation/[redacted]/[redacted]?redirect=/s/[redacted]',
    );
    expect(redactUrl('/login?redirect=%2Fmusic')).toBe('/login?redirect=%2Fmusic');
    expect(redactUrl('/api/x/?Token=abc&page=2&%zz=1&refresh')).toBe('/api/x/?Token=[redacted]&page=2&%zz=1&refresh');
    expect(redactUrl('/api/x/?')).toBe('/api/x/?');
  });
});
