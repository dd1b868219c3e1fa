import { loadConfig } from '../config';
import { openPreparedDatabase } from '../db/prepare';
import { createMediaStorage } from '../media/storage';
import { seedContent } from './service';

// `npm run seed`: migrations, then the starting content (idempotent). With the embedded database
// it needs the data folder to itself, so run it while the server is stopped.

const config = loadConfig();
const prepared = await openPreparedDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const storage = createMediaStorage(config);
  await storage.check();
  const started = performance.now();
  const report = await seedContent(prepared.database.db, storage.files, { info: (message) => console.log(message) });
  console.log(
    `seed: done in ${Math.round(performance.now() - started)} ms: ${report.categoriesAdded} categories, ${report.programsAdded} programs and ${report.tracksAdded} tracks added, ${report.tracksRegenerated} tracks regenerated`,
  );
} finally {
  await prepared.close();
}
