import { ConfigError, loadConfig } from './config';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './db/data-dir-lock';
import { openDatabase, type Database } from './db/client';
import { migrateDatabase } from './db/migrate';
import { createContext } from './context';
import { buildApp } from './app';
import { closeWithDeadline } from './http/shutdown';
import { sweepStaleUploads } from './media/store';
import { mediaDir, WEB_DIST_DIR } from './paths';
import { seedAudioItems, seedMessageCategories } from './seed/service';
import { buildTrackFilesInWorker } from './seed/track-builder';
import { withTrackCache } from './seed/track-cache';
import { SEED_TRACKS } from './seed/media/catalog';

// Starts Innerwave: config → data-folder lock (embedded database only) → database → migrations → listen.

const STALE_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;

async function main(): Promise<void> {
  const config = loadConfig();
  const lock: DataDirLock | undefined = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrateDatabase(database);
    const ctx = createContext(config, database);
    const app = await buildApp(ctx, { webDir: WEB_DIST_DIR });
    // Parts of uploads cut off by a crash; a day leaves room for an upload still under way elsewhere.
    const swept = await sweepStaleUploads(mediaDir(config.dataDir), STALE_UPLOAD_AGE_MS);
    if (swept) app.log.info(`removed ${swept} stale upload part(s)`);
    const categoriesAdded = await seedMessageCategories(database.db);
    if (categoriesAdded) app.log.info(`seed: ${categoriesAdded} message categories added`);

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      const graceMs = config.http.shutdownGraceSeconds * 1000;
      app.log.info({ signal, graceMs }, 'shutting down: finishing in-flight requests');
      // Should closing itself hang (a database that does not answer), do not wait for ever.
      setTimeout(() => {
        app.log.error('shutdown did not complete; exiting');
        lock?.release();
        process.exit(1);
      }, graceMs + 15_000).unref();
      try {
        await closeWithDeadline(app, graceMs);
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
    // After listening: the first start synthesises the audio library (tens of seconds, progress
    // logged) in a worker thread while the app already answers; later starts only check the files.
    const seedStarted = performance.now();
    seedAudioItems(database.db, config.dataDir, { info: (message) => app.log.info(message) }, SEED_TRACKS, withTrackCache(buildTrackFilesInWorker)).then(
      (result) => app.log.info({ ...result, ms: Math.round(performance.now() - seedStarted) }, 'seed: audio library ready'),
      (error: unknown) => {
        if (!stopping) app.log.error({ err: error }, 'seed: the audio library could not be completed');
      },
    );
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
