import { loadConfig } from '../config';
import { acquireDataDirLock } from '../db/data-dir-lock';
import { openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { seedContent } from './service';

// `npm run seed`: migrations, then the starting content (idempotent). With the embedded database
// it needs the data folder to itself, so run it while the server is stopped.

const config = loadConfig();
const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateDatabase(database);
  const started = performance.now();
  const report = await seedContent(database.db, config.dataDir, { info: (message) => console.log(message) });
  console.log(
    `seed: done in ${Math.round(performance.now() - started)} ms: ${report.categoriesAdded} categories and ${report.tracksAdded} tracks added, ${report.tracksRegenerated} tracks regenerated`,
  );
} finally {
  await database.close();
  lock?.release();
}
