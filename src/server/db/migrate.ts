import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { queryRows, type Database, type Db } from './client';
import { analyseTable, userTables } from './statistics';
import { PROJECT_ROOT } from '../paths';

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, 'drizzle');

/** An arbitrary constant that names Innerwave's migration lock among advisory locks. */
const MIGRATION_LOCK_KEY = 724_311_901;

/** How many migrations the database has applied (drizzle's own table, which the first run creates). */
async function appliedMigrations(db: Pick<Db, 'execute'>): Promise<number> {
  const [table] = await queryRows<{ exists: boolean }>(
    db as Db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
  );
  if (!table!.exists) return 0;
  const [row] = await queryRows<{ count: number }>(
    db as Db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return row!.count;
}

/**
 * Applies the committed migrations (tests: those of another folder, an older release's); on PostgreSQL,
 * processes starting together take turns. A run that applied any then analyses every table: a migration can fill
 * or rewrite one, or index an expression that has no statistics until its table is analysed, and the planner
 * should not wait for autovacuum (or, on the embedded database, a minute) to learn it
 * (docs/decisions/095-the-embedded-database-keeps-its-statistics.md).
 */
export async function migrateDatabase(database: Database, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  const { db } = database;
  let applied = 0;
  if (database.kind === 'pglite') {
    const before = await appliedMigrations(db);
    await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
    applied = (await appliedMigrations(db)) - before;
  } else {
    applied = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const before = await appliedMigrations(tx);
      await migratePg(tx as unknown as NodePgDatabase, { migrationsFolder });
      return (await appliedMigrations(tx)) - before;
    });
  }
  // After the migrations' transaction: its lock is not held meanwhile, and only the process that applied them analyses.
  if (applied > 0) for (const table of await userTables(db)) await analyseTable(db, table);
}
