import path from 'node:path';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PGlite, types, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database, Db } from './client';
import * as schema from './schema';

/**
 * Drizzle reads these types as the text PostgreSQL sent (its own driver asks for the same). They are the
 * instance's parsers, for every query: passed with a query instead, PGlite copies its table of 300-odd
 * parsers into a new object for each one, a third of a small query's time. (Arrays of these, which the
 * schema has none of, PGlite parses itself: it sets every array type's parser when it opens.)
 */
const keepText = (value: string) => value;
const DRIZZLE_PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE].map((oid) => [oid, keepText]),
);

/** Drizzle's driver passes its parsers with every query: the instance has them already (above). */
function withoutQueryParsers<T extends PGlite | Transaction>(client: T): T {
  return new Proxy(client, {
    get(target, key) {
      if (key === 'query')
        return (query: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }) =>
          target.query(query, params, { rowMode: options?.rowMode });
      if (key === 'transaction')
        return <R>(run: (tx: Transaction) => Promise<R>) =>
          (target as PGlite).transaction((tx) => run(withoutQueryParsers(tx)));
      const value: unknown = Reflect.get(target, key, target);
      // PGlite's methods use private fields: they must run on the instance, not on this proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * PostgreSQL's default 128 MB of shared buffers is memory PGlite's process touches and keeps: the primary
 * rested about 120 MB higher with it than with 16 MB. The embedded database is small (accounts, sessions,
 * content), its files stay in the system's page cache, and a setting given at start is not written into
 * the data folder (docs/decisions/007-postgresql-or-embedded-pglite-one-set-of-migrations.md).
 */
const SHARED_BUFFERS = '16MB';

/** The embedded database, in `dataDir` or in memory; every PGlite the server or a test opens comes from here. */
export async function createPglite(options: PGliteOptions = {}): Promise<Database> {
  const client = await PGlite.create({
    ...options,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    parsers: DRIZZLE_PARSERS,
  });
  const db = drizzle({ client: withoutQueryParsers(client), schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    // PGlite runs inside this thread: its backlog shows as event-loop delay, which is watched instead.
    queueDepth: () => 0,
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
    pglite: client,
  };
}

/** The embedded database in DATA_DIR/db, opened by the one process that owns it. */
export async function openPglite(dataDir: string): Promise<Database> {
  const dir = path.join(dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await initialiseInChildProcess(dir);
  return createPglite({ dataDir: dir });
}

/**
 * Creates a new database folder (PostgreSQL's initdb) in a process of its own that exits after: run in
 * the server's primary, what initdb allocated stayed with it for good, about 100 MB of a first start's
 * memory at rest (docs/decisions/001-workers-share-state-through-the-primary.md).
 */
async function initialiseInChildProcess(dir: string): Promise<void> {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script = `const { PGlite } = await import(process.argv[1]);
await (await PGlite.create({ dataDir: process.argv[2] })).close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, pglite, dir]);
}
