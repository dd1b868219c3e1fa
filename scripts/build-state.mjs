import { existsSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

// "Builds what is not built": the SPA and the server are rebuilt when any of their inputs is newer
// than their last build. Tests, test helpers and notes beside the sources are no input: editing one
// rebuilt the whole app (docs/decisions/097-the-app-comes-sooner-builds-when-needed-and-sizes-read-well.md).

export const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(ROOT, 'dist/web/.build-stamp');
export const INPUTS = ['src/web', 'src/shared', 'vite.config.ts', 'build', 'package-lock.json', 'tsconfig.json'];
const SERVER_STAMP = path.join(ROOT, 'dist/server/.build-stamp');
export const SERVER_INPUTS = [
  'src/server',
  'src/shared',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build-state.mjs',
];
/**
 * What `npm start` runs, as arguments for `node`: package.json's start script less its `node`, so that the
 * benches and tests that start the server as a user does pass the same Node flags (the primary's young
 * generation: docs/decisions/037-the-project-brings-its-node.md). A function: every server process imports
 * this module, and only those launchers need it.
 */
export const startArgs = () =>
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
    .scripts.start.split(/\s+/)
    .slice(1)
    .map((arg) => (arg.startsWith('-') ? arg : path.join(ROOT, arg)));
/** The server's entry point once built: plain JavaScript, so a process runs it without a TypeScript loader. */
export const SERVER_ENTRY = path.join(ROOT, 'dist/server/server.mjs');

/**
 * Files under the inputs that no build reads: unit tests (`*.test.ts(x)`), test helpers (a folder named
 * `test`, a file named `test-*.ts`, as src/server/auth/test-helpers.ts) and notes (`*.md`). Only the tests
 * and the command-line tools import them (scripts/build-state.test.ts checks that the app's code does not).
 */
export const isNoBuildInput = (name, isDirectory) =>
  name === 'node_modules' ||
  (isDirectory
    ? name === 'test'
    : /\.test\.tsx?$/.test(name) || /^test-[\w-]+\.tsx?$/.test(name) || name.endsWith('.md'));

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (isNoBuildInput(entry.name, entry.isDirectory())) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Whether a build whose stamp says it started at `builtAt` is of the `inputs` (paths under `root`) as they are. */
export const inputsUnchangedSince = (builtAt, inputs, root = ROOT) =>
  inputs.every((input) => newestMtime(path.join(root, input)) <= builtAt);

function isCurrent(stamp, outputs, inputs) {
  if (!existsSync(stamp) || !outputs.every((output) => existsSync(output))) return false;
  return inputsUnchangedSince(Number(readFileSync(stamp, 'utf8')), inputs);
}

// The SPA and its pages, and the share page's renderer the server loads (dist/render, beside them).
const WEB_OUTPUTS = ['dist/web/index.html', 'dist/render/shared.js'].map((file) => path.join(ROOT, file));
export const webBuildIsCurrent = () => isCurrent(STAMP, WEB_OUTPUTS, INPUTS);

export function buildWeb({ force = false } = {}) {
  if (!force && webBuildIsCurrent()) return;
  const startedAt = Date.now();
  console.log('Building the web app…');
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    // Production whatever the caller's NODE_ENV: Vite keeps one already set, and under Vitest (NODE_ENV=test,
    // the build tests) it built React's development bundle, with StrictMode's doubled effects, for `npm start`.
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) {
    console.error('The web build failed.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, String(startedAt));
}

/**
 * The packages the server bundle imports from node_modules, all but drizzle-orm: Node 24 parses a package's
 * package.json again for every module it loads from it, and drizzle-orm's lists each of its files (179 KB),
 * so loading it cost every server process some 2 s of CPU and 200 MB of garbage before it could answer.
 * Bundled, it is a few chunks of our own.
 */
function externalPackages() {
  const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return Object.keys(dependencies).filter((name) => name !== 'drizzle-orm');
}

/**
 * The server bundled into dist/server (its packages stay in node_modules): every worker process then
 * runs JavaScript as it is, where a TypeScript loader would cost each of them some 70 MB of memory and
 * seconds of start-up. The seed process is an entry point of its own, beside it.
 */
export async function buildServer({ force = false } = {}) {
  if (!force && isCurrent(SERVER_STAMP, [SERVER_ENTRY], SERVER_INPUTS)) return;
  const startedAt = Date.now();
  const { build, stop } = await import('esbuild');
  rmSync(path.join(ROOT, 'dist/server'), { recursive: true, force: true });
  // esbuild's service process (about 37 MB) would otherwise live as long as the server that built.
  await build({
    entryPoints: {
      server: path.join(ROOT, 'src/server/server.ts'),
      'track-worker': path.join(ROOT, 'src/server/seed/track-worker.ts'),
    },
    outdir: path.join(ROOT, 'dist/server'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Chunks: what a worker never uses (the embedded database's driver) is loaded only where it is.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    external: externalPackages(),
    sourcemap: true,
    logLevel: 'warning',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
  }).finally(stop);
  writeFileSync(SERVER_STAMP, String(startedAt));
}
