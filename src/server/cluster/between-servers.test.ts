import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_API, API } from '@shared/contract';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createContext, type AppContext } from '../context';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/database';
import { testEnv } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { acrossServers, localNotices, type NoticeBus } from './notices';
import { postgresNoticeBus } from './postgres-notices';
import { redisRateLimits } from './rate-limit-store';
import { closeRedis, connectRedis } from './redis';
import { redisNoticeBus } from './redis-notices';

// Two app servers in one test: separate contexts (caches, notices, counters) on one database, joined
// by Redis (REDIS_URL) or by PostgreSQL LISTEN/NOTIFY, as two machines behind a load balancer are.

const REDIS = { host: '127.0.0.1', port: 6379 };
/** A Redis of this test's own, stopped and started again during the test. */
const OWN_REDIS_PORT = 6390;
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const postgres = new URL(POSTGRES_URL);

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(false));
  }).then((up) => up);

const redisUp = await reachable(REDIS.host, REDIS.port);
const postgresUp = await reachable(postgres.hostname, Number(postgres.port || 5432));
const redisServerInstalled = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});
/** Wrong passwords are hashed at the lowest CPU priority: on a busy machine, slow. */
const SLOW = { timeout: 120_000 };
const unless = (up: boolean, what: string) => (up ? '' : ` (skipped: ${what})`);

/** Warnings the servers log, for the tests that take Redis away. */
const warnings: string[] = [];
const log = { warn: (_values: object, message: string) => void warnings.push(message) };

interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  redis: Redis | undefined;
  close(): Promise<void>;
}

interface Joins {
  bus: NoticeBus;
  redis?: Redis;
}

async function startServer(database: Database, dataDir: string, joins: Joins, prefix: string): Promise<Server> {
  const config = loadConfig({ ...testEnv(dataDir), AUTH_RATE_LIMIT_PER_EMAIL: '3' });
  const ctx = createContext(config, database, {
    notices: acrossServers(localNotices(), joins.bus),
    ...(joins.redis && { rateLimits: redisRateLimits(joins.redis, { prefix, log }) }),
  });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  await joins.bus.ready;
  if (joins.redis && joins.redis.status !== 'ready')
    await new Promise((resolve) => joins.redis?.once('ready', resolve));
  return {
    app,
    ctx,
    redis: joins.redis,
    async close() {
      await app.close();
      await joins.bus.close();
      if (joins.redis) await closeRedis(joins.redis);
    },
  };
}

/** Two servers on one database, joined as `join` says, for the tests of one describe block. */
function twoServers(join: (prefix: string) => Joins) {
  const servers: { a: Server; b: Server; prefix: string } = {} as never;
  let database: Database | undefined;
  let dataDir = '';
  beforeAll(async () => {
    servers.prefix = `innerwave-test-${randomBytes(4).toString('hex')}:`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-scale-'));
    database = await createTestDatabase();
    servers.a = await startServer(database, dataDir, join(servers.prefix), servers.prefix);
    servers.b = await startServer(database, dataDir, join(servers.prefix), servers.prefix);
  });
  afterAll(async () => {
    await servers.a?.close();
    await servers.b?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return servers;
}

const login = (server: Server, email: string) =>
  server.app.inject({ method: 'POST', url: API.tokenCreate, payload: { email, password: 'not-the-password-1' } });
const me = (server: Server, headers: Record<string, string>) =>
  server.app.inject({ method: 'GET', url: API.me, headers });

/** Whether B stops honouring a session that A ended: at once, or after how many milliseconds. */
async function logoutSeenBy(a: Server, b: Server): Promise<number> {
  const user = await signedInUser(a.ctx);
  expect((await me(b, user.headers)).statusCode).toBe(200); // B now keeps the session in memory
  const logout = await a.app.inject({ method: 'POST', url: API.logout, headers: user.headers });
  expect(logout.statusCode).toBe(204);
  return waitFor(async () => (await me(b, user.headers)).statusCode === 401, 'the other server honours the session');
}

/** 0 when `check` holds at once, else the milliseconds until it does (2 s at most). */
async function waitFor(check: () => Promise<boolean>, failure: string): Promise<number> {
  if (await check()) return 0;
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > 2000) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Math.max(1, performance.now() - started);
}

/** A staff edit on A, then how long until B lists it (0: its very next request). */
async function contentEditSeenBy(a: Server, b: Server): Promise<number> {
  const staff = await signedInUser(a.ctx, { isStaff: true });
  const names = async () =>
    (
      (await b.app.inject({ method: 'GET', url: API.messageCategories, headers: staff.headers })).json() as Array<{
        name: string;
      }>
    ).map((category) => category.name);
  const name = `Calm ${randomBytes(3).toString('hex')}`;
  expect(await names()).not.toContain(name); // B now keeps the list in memory
  const created = await a.app.inject({
    method: 'POST',
    url: ADMIN_API.categories,
    headers: staff.headers,
    payload: { name },
  });
  expect(created.statusCode).toBe(201);
  return waitFor(async () => (await names()).includes(name), 'the other server lists the old content');
}

describe(`two servers on one Redis${unless(redisUp, `no Redis at ${REDIS.host}:${REDIS.port}`)}`, SLOW, () => {
  if (!redisUp) return void it.skip('needs Redis');
  const url = `redis://${REDIS.host}:${REDIS.port}/9`;
  const servers = twoServers((prefix) => ({
    bus: redisNoticeBus(url, { prefix, log }),
    redis: connectRedis(url, log),
  }));

  it('counts login attempts once across both', async () => {
    const email = `someone-${randomBytes(3).toString('hex')}@example.com`;
    const statuses = [];
    for (const server of [servers.a, servers.b, servers.a, servers.b])
      statuses.push((await login(server, email)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Kept under this test's prefix (and database 9), never the machine's other keys.
    const probe = new Redis(url);
    expect(await probe.keys(`${servers.prefix}rate-limit:login|account|${email}`)).toHaveLength(1);
    await probe.quit();
  });

  it('gives a successful login its attempt back, on both', async () => {
    const user = await signedInUser(servers.a.ctx);
    const statuses = [];
    for (const server of [servers.a, servers.b, servers.a, servers.b, servers.a]) {
      const response = await server.app.inject({
        method: 'POST',
        url: API.tokenCreate,
        payload: { email: user.email, password: user.password },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const probe = new Redis(url);
    // Both of the account's counters, from this client address (inject's) and from all, given back to
    // zero: gone, as if never counted.
    expect(await probe.exists(`${servers.prefix}rate-limit:login|account|${user.email}`)).toBe(0);
    expect(await probe.exists(`${servers.prefix}rate-limit:login|account-from|127.0.0.1|${user.email}`)).toBe(0);
    await probe.quit();
  });

  it('refuses a session ended on one server at once on the other', async () => {
    expect(await logoutSeenBy(servers.a, servers.b)).toBe(0);
    expect(await logoutSeenBy(servers.b, servers.a)).toBe(0);
  });

  it("shows a staff edit made on one server on the other's next request", async () => {
    expect(await contentEditSeenBy(servers.a, servers.b)).toBe(0);
  });
});

describe(
  `two servers while their Redis restarts${unless(redisServerInstalled, 'redis-server is not installed')}`,
  SLOW,
  () => {
    if (!redisServerInstalled) return void it.skip('needs redis-server');
    const url = `redis://127.0.0.1:${OWN_REDIS_PORT}`;
    // Made when the tests start: a run that filters them out leaves nothing behind.
    let redisDir = '';
    let redis: ChildProcess | undefined;
    const startRedis = async () => {
      redis = spawn(
        'redis-server',
        [
          '--port',
          String(OWN_REDIS_PORT),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          redisDir,
        ],
        { stdio: 'ignore' },
      );
      for (let tries = 0; !(await reachable('127.0.0.1', OWN_REDIS_PORT)); tries++) {
        if (tries > 100) throw new Error(`redis-server did not start on port ${OWN_REDIS_PORT}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const stopRedis = async () => {
      const stopping = redis;
      if (!stopping || stopping.exitCode !== null) return;
      await new Promise((resolve) => {
        stopping.once('exit', resolve);
        stopping.kill('SIGKILL');
      });
    };
    beforeAll(async () => {
      redisDir = mkdtempSync(path.join(tmpdir(), 'innerwave-redis-'));
      await startRedis();
    });
    afterAll(async () => {
      await stopRedis();
      if (redisDir) rmSync(redisDir, { recursive: true, force: true });
    });
    const servers = twoServers((prefix) => ({
      bus: redisNoticeBus(url, { prefix, log }),
      redis: connectRedis(url, log),
    }));

    /** Until both servers' connections are back: counters ready, both subscribers listening again. */
    const reconnected = async () => {
      const probe = new Redis(url);
      try {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const [, listeners] = (await probe.pubsub('NUMSUB', `${servers.prefix}notices`)) as [string, number];
          if (listeners === 2 && servers.a.redis?.status === 'ready' && servers.b.redis?.status === 'ready') return;
          if (Date.now() > deadline) throw new Error(`Redis not reconnected (${listeners} listeners)`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await probe.quit();
      }
    };

    it('serves every request while Redis is down, and counts and relays again once it is back', async () => {
      const email = `someone-${randomBytes(3).toString('hex')}@example.com`;
      expect((await login(servers.a, email)).statusCode).toBe(401);

      await stopRedis();
      const warningsBefore = warnings.length;
      const statuses = new Set<number>();
      for (let attempt = 0; attempt < 8; attempt++)
        statuses.add((await login(attempt % 2 ? servers.a : servers.b, email)).statusCode);
      // Not counted (fail open), never an error.
      expect([...statuses]).toEqual([401]);
      const user = await signedInUser(servers.a.ctx);
      expect((await me(servers.b, user.headers)).statusCode).toBe(200);
      expect((await servers.a.app.inject({ method: 'POST', url: API.logout, headers: user.headers })).statusCode).toBe(
        204,
      );
      // The publisher's own server still refuses at once.
      expect((await me(servers.a, user.headers)).statusCode).toBe(401);
      expect(warnings.slice(warningsBefore)).toContain(
        'rate-limit counters unavailable (Redis): attempts are not counted',
      );

      await startRedis();
      await reconnected();
      // Counters start over (the restarted Redis kept nothing) and count across both servers again.
      const again = `again-${randomBytes(3).toString('hex')}@example.com`;
      const statusesAfter = [];
      for (const server of [servers.b, servers.a, servers.b, servers.a])
        statusesAfter.push((await login(server, again)).statusCode);
      expect(statusesAfter).toEqual([401, 401, 401, 429]);
      expect(await logoutSeenBy(servers.a, servers.b)).toBe(0);
      expect(await contentEditSeenBy(servers.b, servers.a)).toBe(0);
    });
  },
);

describe(
  `two servers on PostgreSQL LISTEN/NOTIFY, without Redis${unless(postgresUp, `no PostgreSQL at ${postgres.host}`)}`,
  SLOW,
  () => {
    if (!postgresUp) return void it.skip('needs PostgreSQL');
    // A channel of this test's own: parallel tests on the same server never hear each other.
    const channel = `innerwave_test_${randomBytes(6).toString('hex')}`;
    const servers = twoServers(() => ({ bus: postgresNoticeBus(POSTGRES_URL, { channel, log }) }));

    it('refuses a session ended on one server at once on the other, and shows a staff edit on its next request', async () => {
      // The sender counts the listening connections and waits for each other server's acknowledgement.
      expect(await logoutSeenBy(servers.a, servers.b)).toBe(0);
      expect(await contentEditSeenBy(servers.b, servers.a)).toBe(0);
    });

    it('listens again after its connection is cut, counted by the others only once it listens', async () => {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      // A LISTEN as slow as on a loaded machine: a connection counted before it listens would miss the
      // notice below (and keep its sender waiting for an acknowledgement).
      const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
      const slowListen = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        if (typeof args[0] === 'string' && args[0].startsWith('LISTEN '))
          return new Promise((resolve) => setTimeout(resolve, 500)).then(() => query.apply(this, args));
        return query.apply(this, args);
      } as never);
      const listeners = () =>
        admin.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1`, [
          `innerwave LISTEN ${channel}`,
        ]);
      try {
        const before = (await listeners()).rows.map((row) => row.pid);
        expect(before).toHaveLength(2);
        await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
          `innerwave LISTEN ${channel}`,
        ]);
        const deadline = Date.now() + 10_000;
        const listeningAgain = async () => {
          const pids = (await listeners()).rows.map((row) => row.pid);
          return pids.length === 2 && pids.every((pid) => !before.includes(pid));
        };
        while (!(await listeningAgain())) {
          if (Date.now() > deadline) throw new Error('the servers did not listen again');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        slowListen.mockRestore();
        await admin.end();
      }
      expect(await logoutSeenBy(servers.b, servers.a)).toBe(0);
    });
  },
);
