import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

// Tools the tests and benchmarks run come from Debian's packages; nothing is downloaded otherwise.

/** Installs each missing tool's package with apt-get (as root), or says how and exits. */
export function ensureDebianPackages(tools) {
  const missing = tools.filter((tool) => !existsSync(tool.path));
  if (missing.length === 0) return;
  const packages = missing.map((tool) => tool.pkg);
  if (process.getuid?.() !== 0) {
    console.error(`Missing: run "sudo apt-get install -y ${packages.join(' ')}", then try again.`);
    process.exit(1);
  }
  console.log(`Installing ${packages.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed: install ${packages.join(' ')} and try again.`);
      process.exit(1);
    }
  }
}

// The e2e tests drive Debian's Chromium; browsers cannot be downloaded here.
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const ensureChromium = () => ensureDebianPackages([{ path: CHROMIUM_PATH, pkg: 'chromium' }]);
