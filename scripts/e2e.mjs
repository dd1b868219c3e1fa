import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { ensureChromium } from './debian-packages.mjs';
import { buildServer, buildWeb, ROOT } from './build-state.mjs';

// `npm run test:e2e`: Chromium, a fresh build if needed, then Playwright against the app started
// as `npm start` starts it, on a temporary data folder and the embedded database. The app and the server
// are built here, once, before any server starts; the server Playwright starts builds nothing
// (INNERWAVE_BUILT, scripts/start.mjs), so a source edited during the run changes nothing in it (decision 097).
ensureChromium();
buildWeb();
await buildServer();
const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-e2e-'));
const env = { ...process.env, E2E_DATA_DIR: dataDir, INNERWAVE_BUILT: '1' };
delete env.DATABASE_URL;

// A staff account for the admin tests, created with the admin CLI before the server holds the data folder.
env.E2E_STAFF_EMAIL = 'staff@e2e.innerwave.test';
env.E2E_STAFF_PASSWORD = `Quiet-Harbour-${randomBytes(6).toString('hex')}`;
const staff = spawnSync(
  path.join(ROOT, 'node_modules/.bin/tsx'),
  ['src/server/admin/cli.ts', 'create-staff', '--email', env.E2E_STAFF_EMAIL],
  {
    cwd: ROOT,
    input: `${env.E2E_STAFF_PASSWORD}\n`,
    env: { ...env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  },
);
if (staff.status !== 0) {
  console.error(`Could not create the e2e staff user:\n${staff.stderr}`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
// Payments: the app talks to a Stripe stand-in (src/server/test/stripe-stand-in.ts) that serves the
// hosted Checkout and portal pages and sends signed webhooks to the app; nothing reaches Stripe.
const appPort = Number(env.E2E_PORT ?? 3210);
const stripePort = Number(env.E2E_STRIPE_PORT ?? appPort + 1);
Object.assign(env, {
  STRIPE_SECRET_KEY: 'sk_test_e2e',
  STRIPE_WEBHOOK_SECRET: `whsec_e2e_${randomBytes(8).toString('hex')}`,
  STRIPE_PRICE_INTERMEDIATE: 'price_e2e_intermediate',
  STRIPE_PRICE_PRO: 'price_e2e_pro',
  STRIPE_API_URL: `http://127.0.0.1:${stripePort}`,
});
const standIn = spawn(
  path.join(ROOT, 'node_modules/.bin/tsx'),
  [
    'src/server/test/stripe-stand-in.ts',
    ...['--port', String(stripePort), '--webhook-secret', env.STRIPE_WEBHOOK_SECRET],
    ...['--webhook-url', `http://127.0.0.1:${appPort}/api/billing/webhook/`],
    ...['--price-intermediate', env.STRIPE_PRICE_INTERMEDIATE, '--price-pro', env.STRIPE_PRICE_PRO],
  ],
  { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] },
);
const standInUp = await waitForHealth(`${env.STRIPE_API_URL}/health`, 60_000);
if (!standInUp) {
  console.error(`The Stripe stand-in did not answer on ${env.STRIPE_API_URL}.`);
  standIn.kill();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  },
);
standIn.kill();
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);

async function waitForHealth(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (standIn.exitCode !== null) return false;
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
