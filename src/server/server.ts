import { ConfigError, loadConfig } from './config';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './db/data-dir-lock';
import { openDatabase, type Database } from './db/client';
import { migrateDatabase } from './db/migrate';
import { createContext } from './context';
import { buildApp } from './app';
import { WEB_DIST_DIR } from './paths';

// Starts Innerwave: config → data-folder lock (embedded database only) → database → migrations → listen.

async function main(): Promise<void> {
  const config = loadConfig();
  const lock: DataDirLock | undefined = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrateDatabase(database);
    const ctx = createContext(config, database);
    const app = await buildApp(ctx, { webDir: WEB_DIST_DIR });

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      try {
        await app.close();
        await database?.close();
      } finally {
        lock?.release();
      }
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));

    await app.listen({ host: config.host, port: config.port });
    app.log.info(`Innerwave is running at ${config.publicUrl} (database: ${database.kind})`);
  } catch (error) {
    await database?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('Innerwave failed to start:', error);
  }
  process.exit(1);
});
