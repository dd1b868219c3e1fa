import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import * as schema from './schema';
import { PrimaryPool } from './primary-pool';
import type { PrimaryChannel } from '../cluster/ipc';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Queries waiting for the database (a pool connection, or the primary's answer): a measure of overload. */
  queueDepth(): number;
  close(): Promise<void>;
  /** The embedded database itself, in the process that owns it. */
  pglite?: PGlite;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  logger?: Pick<FastifyBaseLogger, 'error'>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { logger: options.logger });
  // Loaded only where it is used: the primary, the CLIs and tests (PGlite is tens of MB of memory).
  const { openPglite } = await import('./pglite');
  return openPglite(options.dataDir);
}

/** The embedded database as a cluster worker sees it: owned by the primary, queried through it. */
export function fromPrimary(primary: PrimaryChannel): Database {
  const db = drizzlePg({ client: new PrimaryPool(primary) as unknown as pg.Pool, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    queueDepth: () => primary.pending(),
    ping: async () => void (await db.execute(sql`select 1`)),
    // The primary closes it, once every worker has stopped.
    close: async () => undefined,
  };
}

export interface PostgresOptions {
  logger?: Pick<FastifyBaseLogger, 'error'> | undefined;
  /**
   * A server worker's pool: this many connections, all opened before it serves and none closed for
   * idleness. Starting a PostgreSQL backend costs it about 25 ms of CPU here: a pool that grew at the
   * start of a burst (a login storm) had PostgreSQL start a score of them at once, and the event loops
   * waited for the cores (docs/decisions/007-postgresql-or-embedded-pglite-one-set-of-migrations.md).
   */
  keepOpen?: number | undefined;
  /**
   * Run once on each kept-open connection before it serves: a PostgreSQL backend spends about 10 ms of
   * CPU on its first statements of a kind (reading the descriptions of the tables and indexes they
   * touch), and a burst on fresh connections has every backend do so at once, beside the event loops
   * (docs/decisions/089-fresh-connections-are-warmed-before-they-serve.md). It must write nothing; a
   * connection it fails on serves all the same.
   */
  prepareConnection?: ((db: Db) => Promise<void>) | undefined;
}

export async function openPostgres(
  url: string,
  { logger, keepOpen, prepareConnection }: PostgresOptions = {},
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: keepOpen ?? 10,
    min: keepOpen ?? 0,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (error) => logger?.error({ err: error }, 'PostgreSQL pool error'));
  if (keepOpen) {
    // Each connection made, then handed back; one that fails is made again by the first query that needs it.
    const opened = await Promise.allSettled(Array.from({ length: keepOpen }, () => pool.connect()));
    const connections = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    if (prepareConnection) {
      const prepared = await Promise.allSettled(
        connections.map((connection) => prepareConnection(drizzlePg({ client: connection, schema }) as unknown as Db)),
      );
      const unprepared = prepared.find((result) => result.status === 'rejected');
      if (unprepared)
        logger?.error({ err: unprepared.reason }, 'PostgreSQL: connections could not be prepared at start');
    }
    for (const connection of connections) connection.release();
    const failed = opened.find((result) => result.status === 'rejected');
    if (failed) logger?.error({ err: failed.reason }, 'PostgreSQL: connections could not be opened at start');
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    queueDepth: () => pool.waitingCount,
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => pool.end(),
  };
}

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
