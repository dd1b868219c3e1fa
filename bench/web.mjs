import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildWeb, ROOT } from '../scripts/build-state.mjs';
import { freePort } from './free-port.mjs';
import { CHROMIUM_PATH, ensureChromium } from '../scripts/debian-packages.mjs';

// `npm run bench:web [-- --runs=3] [--path=/terms/] [--report=/tmp/lhr.json]`: builds the SPA, starts the app as `npm start` does
// on a temporary data folder and a free port, runs Lighthouse (mobile default) against the page and
// prints its scores, its vitals and the gzip size of the JavaScript the page loaded.

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const runs = Math.max(1, Number(args.runs ?? 1));
const pagePath = args.path ?? '/';
const TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100, cls: 0.05, firstLoadJsKb: 90 };

async function waitForHealth(origin, server) {
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not become healthy in 60 s');
}

const gzipKb = (urlPath) => gzipSync(readFileSync(path.join(ROOT, 'dist/web', urlPath)), { level: 9 }).length / 1024;

/**
 * First-load JS of the page: the entry script and its modulepreloads from the built page the server
 * sends for it (home.html for `/`, index.html for every other route). Chunks fetched later (a modal
 * on first open) are not part of it; `loadedKb` adds up every script Lighthouse saw the page request.
 */
function firstLoadJs(lhr, origin) {
  const page = pagePath === '/' && existsSync(path.join(ROOT, 'dist/web/home.html')) ? 'home.html' : 'index.html';
  const html = readFileSync(path.join(ROOT, 'dist/web', page), 'utf8');
  const critical = [
    ...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ].map((m) => m[1] ?? m[2]);
  const files = critical.map((urlPath) => ({ file: path.basename(urlPath), kb: gzipKb(urlPath) }));
  const requests = lhr.audits['network-requests'].details?.items ?? [];
  const loaded = requests
    .filter((item) => item.resourceType === 'Script' && item.url.startsWith(origin))
    .map((item) => new URL(item.url).pathname);
  return {
    files,
    totalKb: files.reduce((sum, f) => sum + f.kb, 0),
    loaded: loaded.map((urlPath) => path.basename(urlPath)),
    loadedKb: loaded.reduce((sum, urlPath) => sum + gzipKb(urlPath), 0),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!process.env.CHROME_PATH) ensureChromium();
buildWeb();
const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-bench-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
const server = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
  cwd: ROOT,
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
let chrome;
try {
  await waitForHealth(origin, server);
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const results = [];
  for (let run = 1; run <= runs; run++) {
    const { lhr } = await lighthouse(`${origin}${pagePath}`, { port: chrome.port, output: 'json', logLevel: 'error' });
    if (args.report) writeFileSync(args.report, JSON.stringify(lhr));
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const result = {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
      cls: lhr.audits['cumulative-layout-shift'].numericValue,
      tbtMs: lhr.audits['total-blocking-time'].numericValue,
      fcpMs: lhr.audits['first-contentful-paint'].numericValue,
      js: firstLoadJs(lhr, origin),
      failed: Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id),
    };
    results.push(result);
    console.log(
      `run ${run}/${runs}: performance ${result.performance}, accessibility ${result.accessibility}, best-practices ${result['best-practices']}, SEO ${result.seo}, ` +
        `LCP ${Math.round(result.lcpMs)} ms, CLS ${result.cls.toFixed(3)}, TBT ${Math.round(result.tbtMs)} ms`,
    );
  }
  const last = results.at(-1);
  const summary = {
    performance: median(results.map((r) => r.performance)),
    accessibility: median(results.map((r) => r.accessibility)),
    'best-practices': median(results.map((r) => r['best-practices'])),
    seo: median(results.map((r) => r.seo)),
    lcpMs: Math.round(median(results.map((r) => r.lcpMs))),
    fcpMs: Math.round(median(results.map((r) => r.fcpMs))),
    cls: Number(median(results.map((r) => r.cls)).toFixed(3)),
    tbtMs: Math.round(median(results.map((r) => r.tbtMs))),
    firstLoadJsKb: Number(last.js.totalKb.toFixed(1)),
  };
  console.log(`\nLighthouse ${lighthouseVersion()} · mobile · ${origin}${pagePath} · median of ${runs}`);
  console.table(summary);
  console.log('First-load JS (KB gzip):', last.js.files.map((f) => `${f.file} ${f.kb.toFixed(1)}`).join(', '));
  console.log(
    `Every script the page requested during the run: ${last.js.loaded.join(', ')} = ${last.js.loadedKb.toFixed(1)} KB gzip`,
  );
  if (last.failed.length) console.log('Failed binary audits:', last.failed.join(', '));
  const misses = [
    summary.performance < TARGETS.performance && 'performance',
    summary.accessibility < TARGETS.accessibility && 'accessibility',
    summary['best-practices'] < TARGETS['best-practices'] && 'best-practices',
    summary.seo < TARGETS.seo && 'SEO',
    summary.cls >= TARGETS.cls && 'CLS',
    summary.firstLoadJsKb > TARGETS.firstLoadJsKb && 'first-load JS',
  ].filter(Boolean);
  console.log(misses.length ? `Below target: ${misses.join(', ')}` : 'All targets met.');
} finally {
  await chrome?.kill();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

function lighthouseVersion() {
  return JSON.parse(readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version;
}
