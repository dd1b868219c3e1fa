import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './debian-packages.mjs';
import { buildWeb, ROOT } from './build-state.mjs';

// `npm run test:e2e`: Chromium, a fresh build if needed, then Playwright against the app started
// as `npm start` starts it, on a temporary data folder and the embedded database.
ensureChromium();
buildWeb();
const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-e2e-'));
const env = { ...process.env, E2E_DATA_DIR: dataDir };
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
const result = spawnSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  },
);
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
