import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createContext } from '../context';
import { openPostgres } from '../db/client';
import { createPglite } from '../db/pglite';
import { migrateDatabase } from '../db/migrate';
import { runFuzz } from './run';
import { createFuzzPostgres, fuzzTokens } from './target';
import { standInStripeEnv, startStripeStandIn } from '../test/stripe-stand-in';

const USAGE = `npm run fuzz -- [--requests=50000] [--seed=N] [--port=N] [--database-url=postgres://…]

The fuzz test of npm test, longer, on an in-memory database and a temporary data folder, listening on
127.0.0.1 at --port (any free one if not given). Exits 1 when any answer was a 5xx or missing.
--database-url: on that PostgreSQL server instead, in a database of its own, dropped at the end.`;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '50000' },
    seed: { type: 'string' },
    port: { type: 'string', default: '0' },
    'database-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const requests = Number(values.requests);
const seed = Number(values.seed ?? Date.now() % 2 ** 31);
const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-fuzz-'));
const postgres = values['database-url'] ? await createFuzzPostgres(values['database-url']) : undefined;
const database = postgres ? await openPostgres(postgres.url) : await createPglite();
await migrateDatabase(database);
// Billing configured against the Stripe stand-in, so its calls are fuzzed past their 503.
const stripe = await startStripeStandIn({ webhookSecret: 'whsec_fuzz' });
const config = loadConfig({
  ...standInStripeEnv(stripe.url, 'whsec_fuzz'),
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  SECRET_KEY: 'fuzz-secret-key-that-is-long-enough-0123456789',
  LOG_LEVEL: 'silent',
  AUTH_RATE_LIMIT_PER_ADDRESS: '1000000',
  AUTH_RATE_LIMIT_PER_EMAIL: '1000000',
  MAX_APPLICATION_BYTES: String(64 * 1024),
});
const ctx = createContext(config, database);
const app = await buildApp(ctx, { logger: false });
await app.listen({ port: Number(values.port), host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
console.log(`fuzzing ${baseUrl} with ${requests} requests, seed ${seed}`);
const started = performance.now();
const result = await runFuzz({ baseUrl, requests, seed, tokens: await fuzzTokens(ctx) });
console.log(
  `sent ${result.sent} in ${Math.round((performance.now() - started) / 1000)} s; answers by status: ${JSON.stringify(result.statuses)}`,
);
for (const failure of result.failures.slice(0, 20))
  console.log(`  ${failure.status} ${failure.method} ${failure.path} ${failure.body.slice(0, 200)}`);
console.log(
  result.failures.length === 0
    ? 'no 5xx, no request left unanswered'
    : `${result.failures.length} failures (seed ${seed})`,
);
await app.close();
await stripe.close();
await database.close();
await postgres?.drop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.failures.length === 0 ? 0 : 1);
