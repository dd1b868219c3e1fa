import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACCOUNT_INACTIVE_CODE, API } from '@shared/contract';
import { clusterRateLimits, localRateLimits } from '../cluster/rate-limit-store';
import { decodeUid, encodeUid } from './account-tokens';
import type { PrimaryChannel } from '../cluster/ipc';
import { createAuthRateLimits } from './rate-limits';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { users } from '../db/schema';
import { PASSWORD, post } from './test-helpers';

/** A login from `remoteAddress`, the client address the app reads when no proxy is trusted. */
const attempt = (t: TestApp, email: string, password: string, remoteAddress: string, headers = {}) =>
  t.app.inject({ method: 'POST', url: API.tokenCreate, payload: { email, password }, remoteAddress, headers });

describe('rate limits on the account calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Production's per-e-mail default; a small per-address limit to reach it quickly.
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_ADDRESS: '30', AUTH_RATE_LIMIT_WINDOW_SECONDS: '600' });
  });
  afterAll(() => t.close());

  it('stops forty wrong passwords for one account, with Retry-After, even for the right one', async () => {
    const user = await signedInUser(t.ctx);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 40; i++) {
      const response = await post(t, API.tokenCreate, { email: user.email, password: `Wrong-Password-${i}` });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited ??= response;
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited!.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(limited!.json<{ detail: string }>().detail).toMatch(
      /^Request was throttled\. Expected available in \d+ seconds\.$/,
    );

    const rightPassword = await post(t, API.tokenCreate, { email: user.email.toUpperCase(), password: user.password });
    expect(rightPassword.statusCode).toBe(429);
  });

  it("counts only failed logins, and locks only the client that failed: another's right password is let in", async () => {
    const user = await signedInUser(t.ctx);
    const login = (password: string, device: number) =>
      attempt(t, user.email, password, `198.51.100.${device}`).then((response) => response.statusCode);

    // Each device its own address, so the per-address limit (all attempts) stays out of the way.
    const devices = Array.from({ length: 12 }, (_, device) => device);
    const rightOnes = [];
    for (const device of devices) rightOnes.push(await login(user.password, device));
    expect(rightOnes).toEqual(devices.map(() => 200));

    // A success in between does not clear the failures before it, from the same client.
    const attempts = [];
    for (let i = 0; i < 9; i++) attempts.push(await login(`Wrong-Password-${i}`, 20));
    attempts.push(await login(user.password, 20), await login('Wrong-Password-9', 20), await login(user.password, 20));
    // Another client has its own attempts: its wrong password is told so and its right one let in.
    attempts.push(await login('Wrong-Password-10', 21), await login(user.password, 21));
    expect(attempts).toEqual([...Array(9).fill(401), 200, 401, 429, 401, 200]);
  });

  it('does not count the right password of an account waiting for activation: its owner keeps being told why', async () => {
    const user = await signedInUser(t.ctx);
    await t.ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await attempt(t, user.email, user.password, '198.51.100.77'));
    expect(answers.map((answer) => [answer.statusCode, answer.json<{ code?: string }>().code])).toEqual(
      answers.map(() => [401, ACCOUNT_INACTIVE_CODE]),
    );
  });

  it("does not let one client that knows a person's address keep them from logging in", async () => {
    const user = await signedInUser(t.ctx);
    const attacker = [];
    for (let i = 0; i < 15; i++)
      attacker.push((await attempt(t, user.email, `Wrong-Password-${i}`, '203.0.113.66')).statusCode);
    expect(attacker).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
    // Any case of the address is the same account, and the attacker's own attempts stay locked.
    expect((await attempt(t, user.email.toUpperCase(), user.password, '203.0.113.66')).statusCode).toBe(429);

    expect((await attempt(t, user.email.toUpperCase(), user.password, '192.0.2.10')).statusCode).toBe(200);
  });

  it('counts a client by the address the app reads: a claimed X-Forwarded-For, or another address of its IPv6 /64, gives it no fresh attempts', async () => {
    const user = await signedInUser(t.ctx);
    // No proxy is trusted here: the header is whatever the client wrote.
    const spoofed = [];
    for (let i = 0; i < 11; i++)
      spoofed.push(
        (
          await attempt(t, user.email, `Wrong-Password-${i}`, '203.0.113.77', {
            'x-forwarded-for': `192.0.2.${100 + i}`,
          })
        ).statusCode,
      );
    expect(spoofed).toEqual([...Array(10).fill(401), 429]);
    // The same address written as IPv6 is the same client.
    expect((await attempt(t, user.email, user.password, '::ffff:203.0.113.77')).statusCode).toBe(429);

    const other = await signedInUser(t.ctx);
    const fromNetwork = [];
    for (let i = 0; i < 10; i++)
      fromNetwork.push((await attempt(t, other.email, `Wrong-Password-${i}`, `2001:db8:5:6::${i + 1}`)).statusCode);
    expect(fromNetwork).toEqual(Array(10).fill(401));
    expect((await attempt(t, other.email, user.password, '2001:db8:5:6:ffff:1:2:3')).statusCode).toBe(429);
    // Another network is another client.
    expect((await attempt(t, other.email, other.password, '2001:db8:5:7::1')).statusCode).toBe(200);
  });

  it('lets no more than ten wrong passwords sent at once through to the check', async () => {
    const user = await signedInUser(t.ctx);
    const statuses = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: API.tokenCreate,
          payload: { email: user.email, password: `Wrong-Password-${i}` },
          remoteAddress: '198.51.100.30',
        }),
      ),
    );
    expect(statuses.map((response) => response.statusCode).sort()).toEqual([
      ...Array(10).fill(401),
      ...Array(5).fill(429),
    ]);
  });

  it('limits one client address across many accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const response = await post(t, API.resetPassword, { email: `someone-${i}@example.com` });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 204)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('the counters of one attempt', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_ADDRESS: '3',
      AUTH_RATE_LIMIT_PER_EMAIL: '3',
      AUTH_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: '7',
    });
  });
  afterAll(() => t.close());

  it('does not count against an account the attempts its address limit refused', async () => {
    const user = await signedInUser(t.ctx);
    const login = (email: string, password: string, remoteAddress: string) =>
      attempt(t, email, password, remoteAddress).then((response) => response.statusCode);
    // One machine spends its three attempts on other accounts, then tries this one three times.
    for (let i = 0; i < 3; i++) await login(`someone-${i}@example.com`, 'Wrong-Password-1', '198.51.100.40');
    const refused = [];
    for (let i = 0; i < 3; i++) refused.push(await login(user.email, `Wrong-Password-${i}`, '198.51.100.40'));
    expect(refused).toEqual(Array(3).fill(429));

    // The account still has its seven failures, from however many machines.
    const attempts = [];
    for (let i = 0; i < 8; i++)
      attempts.push(await login(user.email, `Wrong-Password-${i}`, `198.51.100.${50 + Math.floor(i / 3)}`));
    expect(attempts).toEqual([...Array(7).fill(401), 429]);
  });

  it('bounds many clients together per account, counting only the attempts each one was let to try', async () => {
    const user = await signedInUser(t.ctx);
    const login = (password: string, remoteAddress: string) =>
      attempt(t, user.email, password, remoteAddress).then((response) => response.statusCode);
    const attempts = [];
    // The first client's own limit refuses its fourth and fifth: they do not count toward the account.
    for (let i = 0; i < 5; i++) attempts.push(await login(`Wrong-Password-${i}`, '198.51.100.60'));
    for (let i = 0; i < 3; i++) attempts.push(await login(`Wrong-Password-${i}`, '198.51.100.61'));
    attempts.push(await login('Wrong-Password-7', '198.51.100.62'));
    // Seven wrong passwords in all: distributed guessing is stopped for everyone, the right password too.
    attempts.push(await login(user.password, '198.51.100.63'));
    expect(attempts).toEqual([401, 401, 401, 429, 429, 401, 401, 401, 401, 429]);
  });
});

describe('counting an attempt in a worker', () => {
  it("asks the primary for the address's and the account's counts in the same turn, so they cross as one message", async () => {
    const turns: string[][] = [[]];
    const channel: PrimaryChannel = {
      call: <T>(_method: string, params: unknown) => {
        turns.at(-1)!.push((params as { key: string }).key);
        return new Promise<T>((resolve) =>
          setImmediate(() => {
            turns.push([]);
            resolve({ current: 1, ttl: 60_000 } as T);
          }),
        );
      },
      onNotice: () => {},
      pending: () => 0,
    };
    const counters = clusterRateLimits(channel);
    const app = Fastify();
    await app.register(rateLimit, { global: false, store: counters.store });
    const limits = createAuthRateLimits(app, counters, {
      windowSeconds: 60,
      perAddress: 5,
      perEmail: 5,
      perEmailAllAddresses: 50,
    });
    app.post('/attempt', async (request) => {
      await limits.count(request, 'login', 'Ada@Example.com');
      return {};
    });
    expect((await app.inject({ method: 'POST', url: '/attempt', remoteAddress: '198.51.100.7' })).statusCode).toBe(200);
    expect(turns[0]).toEqual([
      'login|address|198.51.100.7',
      'login|account-from|198.51.100.7|ada@example.com',
      'login|account|ada@example.com',
    ]);
    await app.close();
  });
});

describe("an account's counter from all clients, against a spray of other counters", () => {
  it('still refuses guesses at a locked account after a client sends twenty-five thousand logins for made-up accounts', async () => {
    const t = await createTestApp();
    try {
      const user = await signedInUser(t.ctx);
      // Ten clients, ten wrong passwords each: the account's hundred.
      for (let client = 0; client < 10; client++)
        for (let i = 0; i < 10; i++) await attempt(t, user.email, `Wrong-Password-${i}`, `198.51.100.${client}`);
      expect((await attempt(t, user.email, 'Wrong-Password-x', '198.51.100.200')).statusCode).toBe(429);
      // Fifty reach the check; the rest are refused at once and, before, each left two counters behind,
      // which pushed the account's out of the 50,000 the primary kept.
      for (let i = 0; i < 25_000; i++) await attempt(t, `made-up-${i}@example.com`, 'Wrong-Password-1', '203.0.113.9');
      expect((await attempt(t, user.email, 'Wrong-Password-y', '198.51.100.201')).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  }, 300_000);
});

describe("an e-mailed link's counter", () => {
  const full: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { AUTH_RATE_LIMIT_PER_ADDRESS: '50', AUTH_RATE_LIMIT_PER_EMAIL: '3' },
      {},
      // No room for a counter held until its window ends: each one tried is told.
      { rateLimits: localRateLimits({ held: 0, onFull: (store) => full.push(store) }) },
    );
  });
  afterAll(() => t.close());
  const confirm = (uid: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: API.resetPasswordConfirm,
      payload: {
        uid,
        token: 'cz0zb5-0123456789abcdef0123456789abcdef',
        new_password: PASSWORD,
        re_new_password: PASSWORD,
      },
      remoteAddress,
    });

  it('counts no account for a uid that names none', async () => {
    const refused = await confirm(encodeUid(2_000_000_000), '198.51.100.90');
    expect(refused.json()).toEqual({ uid: ["Invalid user id or user doesn't exist."] });
    expect(full).toEqual([]);
  });
});

describe("an e-mailed link's counter, by account", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_ADDRESS: '50', AUTH_RATE_LIMIT_PER_EMAIL: '3' });
  });
  afterAll(() => t.close());

  it('counts the wrong links of one account together, however its uid is spelled', async () => {
    const user = await signedInUser(t.ctx);
    const uid = encodeUid(user.id);
    // The last character's spare bits change the spelling, not the id (a small id leaves some).
    const spareBits = { 2: 4, 3: 2 }[uid.length % 4]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = (alphabet.indexOf(uid.at(-1)!) >> spareBits) << spareBits;
    const spellings = [0, 1, 2, 3].map((bits) => uid.slice(0, -1) + alphabet[last + bits]!);
    expect(new Set(spellings.map((spelling) => decodeUid(spelling)))).toEqual(new Set([user.id]));
    const answers = [];
    for (const [i, spelling] of spellings.entries())
      answers.push(
        (
          await t.app.inject({
            method: 'POST',
            url: API.resetPasswordConfirm,
            payload: {
              uid: spelling,
              token: 'cz0zb5-0123456789abcdef0123456789abcdef',
              new_password: PASSWORD,
              re_new_password: PASSWORD,
            },
            remoteAddress: `198.51.100.${110 + i}`,
          })
        ).statusCode,
      );
    expect(answers).toEqual([400, 400, 400, 429]);
  });
});
