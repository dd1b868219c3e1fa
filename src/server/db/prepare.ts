import { acquireDataDirLock } from './data-dir-lock';
import { openDatabase, type Database, type DatabaseOptions } from './client';
import { migrateDatabase } from './migrate';
import { keepTablesAtOpen } from './statistics';

/** The database as the process that owns the data holds it: the server's primary, or a CLI. */
export interface PreparedDatabase {
  database: Database;
  /** Closes the database, then frees the data folder. */
  close(): Promise<void>;
  /** Frees the data folder at once, for a process that exits without closing. */
  releaseLock(): void;
}

/**
 * The one start-up sequence: the data folder locked when the database is the embedded one (two
 * processes on one PGlite folder lose rows), the database opened, its migrations applied, and the embedded
 * one's tables vacuumed, and analysed where their statistics are missing or stale (it has no autovacuum:
 * statistics.ts).
 * Nothing is left held when a step fails.
 */
export async function openPreparedDatabase(options: DatabaseOptions): Promise<PreparedDatabase> {
  const lock = options.databaseUrl ? undefined : acquireDataDirLock(options.dataDir);
  let database: Database | undefined;
  try {
    database = await openDatabase(options);
    await migrateDatabase(database);
    if (database.kind === 'pglite') await keepTablesAtOpen(database.db);
  } catch (error) {
    await database?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  const opened = database;
  return {
    database: opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        lock?.release();
      }
    },
    releaseLock: () => lock?.release(),
  };
}
