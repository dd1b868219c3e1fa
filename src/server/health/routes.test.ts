import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { HEALTH_PING_FRESH_MS, sharedPing } from './routes';

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
  it('reuses a success for a short while, and never a failure', async () => {
    let now = 0;
    let up = true;
    let pings = 0;
    const ping = sharedPing(
      async () => {
        pings++;
        if (!up) throw new Error('down');
      },
      () => now,
    );
    await ping();
    now += HEALTH_PING_FRESH_MS - 1;
    await ping();
    expect(pings).toBe(1);

    now += 1;
    up = false;
    await expect(ping()).rejects.toThrow('down');
    await expect(ping()).rejects.toThrow('down');
    expect(pings).toBe(3);

    up = true;
    await ping();
    expect(pings).toBe(4);
  });
});
