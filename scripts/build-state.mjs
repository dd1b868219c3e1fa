import { existsSync, readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

// "Builds what is not built": the SPA is rebuilt when any of its inputs is newer than the last build.

export const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(ROOT, 'dist/web/.build-stamp');
const INPUTS = ['src/web', 'src/shared', 'vite.config.ts', 'build', 'package-lock.json', 'tsconfig.json'];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export function webBuildIsCurrent() {
  if (!existsSync(STAMP) || !existsSync(path.join(ROOT, 'dist/web/index.html'))) return false;
  const built = Number(readFileSync(STAMP, 'utf8'));
  return INPUTS.every((input) => newestMtime(path.join(ROOT, input)) <= built);
}

export function buildWeb({ force = false } = {}) {
  if (!force && webBuildIsCurrent()) return;
  const startedAt = Date.now();
  console.log('Building the web app…');
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The web build failed.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, String(startedAt));
}
