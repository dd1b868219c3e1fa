import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';

// Starts Innerwave. The primary: config → data-folder lock (embedded database only) → database →
// migrations → workers; each worker: config → app → listen.

async function main(): Promise<void> {
  const config = loadConfig();
  // Each loads only its own part: a worker never loads the migrations, the seed or the embedded database.
  if (cluster.isPrimary) await (await import('./primary')).runPrimary(config);
  else await (await import('./worker')).runWorker(config);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(cluster.isPrimary ? 'Innerwave failed to start:' : 'An Innerwave worker failed to start:', error);
  }
  process.exit(1);
});
