import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createTestPostgresDatabase } from '../test/database';
import { sql } from 'drizzle-orm';
import { openPostgres, queryRows } from './client';

// A server worker's pool: its connections opened before it serves, so a burst of requests never waits
// for PostgreSQL to start backends (docs/decisions/007-postgresql-or-embedded-pglite-one-set-of-migrations.md).
describe.runIf(inject('dbKind') === 'postgres')("a worker's PostgreSQL pool", () => {
  let url: string;
  let drop: () => Promise<void>;
  let observer: pg.Client;

  beforeAll(async () => {
    ({ url, drop } = await createTestPostgresDatabase());
    observer = new pg.Client({ connectionString: inject('databaseUrl') });
    await observer.connect();
  });
  afterAll(async () => {
    await observer.end();
    await drop();
  });

  const connectionsTo = async (database: string) => {
    const { rows } = await observer.query<{ count: number }>(
      'select count(*)::int as count from pg_stat_activity where datname = $1',
      [database],
    );
    return rows[0]!.count;
  };

  it('has all its connections open once opened, and a burst of queries opens no more', async () => {
    const name = new URL(url).pathname.slice(1);
    const database = await openPostgres(url, { keepOpen: 3 });
    try {
      expect(await connectionsTo(name)).toBe(3);
      await Promise.all(Array.from({ length: 12 }, () => database.ping()));
      expect(await connectionsTo(name)).toBe(3);
    } finally {
      await database.close();
    }
  });

  it('prepares each of its connections before it opens', async () => {
    const name = new URL(url).pathname.slice(1);
    const preparedOn: number[] = [];
    const database = await openPostgres(url, {
      keepOpen: 3,
      prepareConnection: async (db) => {
        const [row] = await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`);
        preparedOn.push(row!.pid);
      },
    });
    try {
      const { rows } = await observer.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
        name,
      ]);
      expect(preparedOn.toSorted()).toEqual(rows.map((row) => row.pid).toSorted());
    } finally {
      await database.close();
    }
  });

  it('serves on connections it could not prepare, and says so once', async () => {
    const logger = { error: vi.fn() };
    const database = await openPostgres(url, {
      logger,
      keepOpen: 3,
      prepareConnection: () => Promise.reject(new Error('refused')),
    });
    try {
      expect(logger.error).toHaveBeenCalledTimes(1);
      expect(logger.error.mock.calls[0]?.[1]).toBe('PostgreSQL: connections could not be prepared at start');
      await Promise.all(Array.from({ length: 6 }, () => database.ping()));
    } finally {
      await database.close();
    }
  });

  it('still opens when PostgreSQL cannot be reached, says so once, and its queries fail', async () => {
    // A port that accepts nothing: a listener closed at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const logger = { error: vi.fn() };
    const database = await openPostgres(`postgres://postgres@127.0.0.1:${port}/none`, { logger, keepOpen: 3 });
    try {
      expect(logger.error).toHaveBeenCalledTimes(1);
      expect(logger.error.mock.calls[0]?.[1]).toBe('PostgreSQL: connections could not be opened at start');
      await expect(database.ping()).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
