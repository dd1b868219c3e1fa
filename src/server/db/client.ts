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
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.logger);
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

export function openPostgres(url: string, logger?: Pick<FastifyBaseLogger, 'error'>): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (error) => logger?.error({ err: error }, 'PostgreSQL pool error'));
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
