import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { HEALTH_PING_FRESH_MS, HEALTH_PING_REFRESH_MS, sharedPing } from './routes';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports ok while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('asks the database once for checks that arrive together', async () => {
    const fresh = await createTestApp();
    try {
      const ping = fresh.database.ping.bind(fresh.database);
      let pings = 0;
      fresh.database.ping = () => {
        pings++;
        return ping();
      };
      const answers = await Promise.all([1, 2, 3].map(() => fresh.app.inject({ method: 'GET', url: '/api/health' })));
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(pings).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('reports 503 when the database does not answer', async () => {
    const broken = await createTestApp();
    await broken.database.close();
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'error', db: 'unavailable' });
    } finally {
      await broken.app.close();
    }
  });
});

describe('the shared database ping of the health check', () => {
  /** A ping whose answers the test gives: each call waits until answer() or fail() settles it. */
  function controlledPing() {
    const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
    return {
      ping: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
      get calls() {
        return pending.length;
      },
      answer: () => pending.at(-1)!.resolve(),
      fail: () => pending.at(-1)!.reject(new Error('down')),
    };
  }
  const settledWithin = (promise: Promise<void>) =>
    Promise.race([
      promise.then(
        () => 'ok',
        () => 'failed',
      ),
      new Promise((r) => setTimeout(() => r('waiting'), 20)),
    ]);

  /** A shared ping on a clock the test moves, after one answered ping at time 0. */
  async function afterOneSuccess() {
    let now = 0;
    const db = controlledPing();
    const ping = sharedPing(db.ping, () => now);
    const first = ping();
    db.answer();
    await first;
    return { db, ping, later: (ms: number) => void (now += ms) };
  }

  it('reuses a success, and asks again ahead of time without keeping the check waiting', async () => {
    let now = 0;
    const db = controlledPing();
    const ping = sharedPing(db.ping, () => now);

    const first = ping();
    expect(await settledWithin(first)).toBe('waiting');
    db.answer();
    expect(await settledWithin(first)).toBe('ok');

    now += HEALTH_PING_REFRESH_MS - 1;
    expect(await settledWithin(ping())).toBe('ok');
    expect(db.calls).toBe(1);

    // Past the refresh age: answered from the last success while one new ping runs.
    now += 1;
    expect(await settledWithin(ping())).toBe('ok');
    expect(await settledWithin(ping())).toBe('ok');
    expect(db.calls).toBe(2);
    db.answer();
    await settledWithin(ping());

    // The refreshed success counts from its own time.
    now += HEALTH_PING_FRESH_MS - 1;
    expect(await settledWithin(ping())).toBe('ok');
    expect(db.calls).toBe(3);
  });

  it('waits for the database once the last success is too old, and never reuses a failure', async () => {
    const { db, ping, later } = await afterOneSuccess();
    later(HEALTH_PING_FRESH_MS);
    const stale = ping();
    expect(await settledWithin(stale)).toBe('waiting');
    db.fail();
    expect(await settledWithin(stale)).toBe('failed');

    const next = ping();
    expect(db.calls).toBe(3);
    expect(await settledWithin(next)).toBe('waiting');
    db.answer();
    expect(await settledWithin(next)).toBe('ok');
  });

  it('ends the reuse of a success when the ping ahead of time fails', async () => {
    const { db, ping, later } = await afterOneSuccess();
    later(HEALTH_PING_REFRESH_MS);
    expect(await settledWithin(ping())).toBe('ok');
    db.fail();
    await new Promise((r) => setTimeout(r, 0));

    const after = ping();
    expect(db.calls).toBe(3);
    expect(await settledWithin(after)).toBe('waiting');
    db.fail();
    expect(await settledWithin(after)).toBe('failed');
  });
});
