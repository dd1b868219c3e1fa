import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Database } from './client';
import { PROJECT_ROOT } from '../paths';

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, 'drizzle');

/** An arbitrary constant that names Innerwave's migration lock among advisory locks. */
const MIGRATION_LOCK_KEY = 724_311_901;

/**
 * Applies the committed migrations (tests: those of another folder, an older release's); on PostgreSQL,
 * processes starting together take turns.
 */
export async function migrateDatabase(database: Database, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await migratePg(tx as unknown as NodePgDatabase, { migrationsFolder });
  });
}
