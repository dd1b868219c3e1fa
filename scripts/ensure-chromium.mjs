import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

// The e2e tests drive Debian's Chromium; browsers cannot be downloaded here.
export const CHROMIUM_PATH = '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing: run "sudo apt-get install -y chromium" (${CHROMIUM_PATH}), then npm test again.`);
    process.exit(1);
  }
  console.log('Installing Chromium with apt-get…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed: install Chromium (${CHROMIUM_PATH}) and run npm test again.`);
      process.exit(1);
    }
  }
}
