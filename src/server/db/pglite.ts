import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database, Db } from './client';
import * as schema from './schema';

/** The embedded database in DATA_DIR/db, opened by the one process that owns it. */
export async function openPglite(dataDir: string): Promise<Database> {
  const dir = path.join(dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  return fromPglite(await PGlite.create({ dataDir: dir }));
}

export function fromPglite(client: PGlite): Database {
  const db = drizzle({ client, schema }) as unknown as Db;
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
