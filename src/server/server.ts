import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { runPrimary } from './primary';
import { runWorker } from './worker';

// Starts Innerwave. The primary: config → data-folder lock (embedded database only) → database →
// migrations → workers; each worker: config → app → listen.

async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isPrimary) await runPrimary(config);
  else await runWorker(config);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(cluster.isPrimary ? 'Innerwave failed to start:' : 'An Innerwave worker failed to start:', error);
  }
  process.exit(1);
});
