import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { buildWeb, ROOT } from './build-state.mjs';

// `npm run test:e2e`: Chromium, a fresh build if needed, then Playwright against the app started
// as `npm start` starts it, on a temporary data folder and the embedded database.
ensureChromium();
buildWeb();
const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-e2e-'));
const env = { ...process.env, E2E_DATA_DIR: dataDir };
delete env.DATABASE_URL;
const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env,
});
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
