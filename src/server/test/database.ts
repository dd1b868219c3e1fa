import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type Database } from '../db/client';
import { createPglite } from '../db/pglite';

/**
 * Resolves once `count` other connections of the test's PostgreSQL database wait on a lock: a request held up by a
 * transaction the test keeps open has reached the row it writes. Throws when none does within 30 s.
 */
export async function waitingOnLocks(database: Database, count = 1): Promise<void> {
  for (let tries = 0; tries < 1500; tries++) {
    const { rows } = (await database.db.execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: { n: number }[] };
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${count} connection(s) never waited on a lock`);
}

export const databaseUrlFor = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

/** A migrated database of its own for one test file, on the project's kind (PGlite or PostgreSQL). */
export async function createTestDatabase(): Promise<Database> {
  const template = inject('dbTemplate');
  if (inject('dbKind') === 'pglite') {
    const dump = await readFile(template);
    return createPglite({ loadDataDir: new Blob([dump]) });
  }
  return openDroppedOnClose(await createTestPostgresDatabase());
}

/**
 * A database of its own with no migration applied, on the project's kind: a migration's test brings it
 * to an older release's schema, writes what that release could hold, then applies the rest.
 */
export async function createUnmigratedTestDatabase(): Promise<Database> {
  if (inject('dbKind') === 'pglite') return createPglite();
  return openDroppedOnClose(await createPostgresDatabase());
}

async function openDroppedOnClose({ url, drop }: { url: string; drop(): Promise<void> }): Promise<Database> {
  const database = await openPostgres(url);
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}

/** PostgreSQL only: a migrated database of its own, by URL (for tests that connect in their own way). */
export function createTestPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createPostgresDatabase(inject('dbTemplate'));
}

/** A PostgreSQL database of its own, copied from `template` when given, else empty. */
async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('databaseUrl');
  const name = `innerwave_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template === undefined ? '' : ` template "${template}"`}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrlFor(adminUrl, name),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}
