import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../app';
import { loadConfig, type Config } from '../config';
import { createContext, type AppContext, type ContextOptions } from '../context';
import type { Database } from '../db/client';
import { createTestDatabase } from './database';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** The settings every test app starts from, on the data folder given. */
export const testEnv = (dataDir: string): Record<string, string> => ({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://innerwave.test',
  // A busy test machine lags the event loop past any production bound; only the tests of load
  // shedding turn it on (they pass their own bound).
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
});

/** The whole app on a fresh migrated database and a temporary data folder, ready for app.inject. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: BuildOptions = {},
  contextOptions: ContextOptions = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-test-'));
  const config = loadConfig({ ...testEnv(dataDir), ...env });
  const database = await createTestDatabase();
  const ctx = createContext(config, database, contextOptions);
  const app = await buildApp(ctx, { logger: false, ...options });
  await app.ready();
  return {
    app,
    ctx,
    database,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
