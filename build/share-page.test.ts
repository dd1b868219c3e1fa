import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fillPath } from '../src/shared/contract/index.ts';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { createContext } from '../src/server/context.ts';
import { migrateDatabase } from '../src/server/db/migrate.ts';
import { createPglite } from '../src/server/db/pglite.ts';
import { profiles } from '../src/server/db/schema.ts';
import { RENDER_DIST_DIR, WEB_DIST_DIR } from '../src/server/paths.ts';
import { signedInUser } from '../src/server/test/fixtures.ts';
import { testEnv } from '../src/server/test/test-app.ts';
import { buildWeb } from '../scripts/build-state.mjs';

// The share page `/s/{token}` as the built app sends it: the server fills the build's own shared.html with
// the renderer the build wrote beside it (docs/decisions/024-the-server-fills-the-share-page.md). The
// server's tests fill a document of their own making; only this one would see the two drift apart.

let app: Awaited<ReturnType<typeof buildApp>>;
let close: () => Promise<void>;
let token: string;
const NAME = 'Sleep & <rest>';
const MESSAGES = ['I rest well.', 'I wake <b>rested</b>.'];

beforeAll(async () => {
  // As `npm start` and the e2e run: builds the web app unless dist holds a build of the sources as they are.
  buildWeb();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-build-test-'));
  const database = await createPglite();
  await migrateDatabase(database);
  const ctx = createContext(loadConfig(testEnv(dataDir)), database);
  app = await buildApp(ctx, { logger: false, webDir: WEB_DIST_DIR, renderDir: RENDER_DIST_DIR });
  await app.ready();
  close = async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const owner = await signedInUser(ctx);
  await database.db.insert(profiles).values({ userId: owner.id, subscriptionPlan: 'pro' });
  const call = (url: string, payload?: object) =>
    app.inject({ method: 'POST', url, headers: owner.headers, ...(payload && { payload }) });
  const category = (await call(API.myCategories, { name: NAME })).json();
  for (const message_text of MESSAGES)
    await call(fillPath(API.myCategoryMessages, { id: category.id }), { message_text });
  token = (await call(fillPath(API.myCategoryShare, { id: category.id }))).json().token;
}, 600_000);
afterAll(() => close?.());

const openPage = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

describe('the build this test made or found', () => {
  // Vitest sets NODE_ENV=test, which Vite keeps: the build then held React's development bundle (StrictMode's
  // doubled effects focused a reloaded page's heading), and `npm start` and the e2e run served it.
  it('is React’s production bundle', () => {
    const assets = path.join(WEB_DIST_DIR, 'assets');
    const development = readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .filter((file) => readFileSync(path.join(assets, file), 'utf8').includes('react.dev/link/react-devtools'));
    expect(development).toEqual([]);
  });

  it('renders share pages with React’s production build, whatever NODE_ENV the server runs with', () => {
    // `npm start` runs without NODE_ENV=production, and a React left to node_modules follows it: its development
    // build filled a share page in about 2 ms of a worker's CPU against 0.45 ms (docs/decisions/024).
    const loaded = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
         await import(${JSON.stringify(pathToFileURL(path.join(RENDER_DIST_DIR, 'shared.js')).href)});
         console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`,
      ],
      { env: { ...process.env, NODE_ENV: 'development' }, encoding: 'utf8' },
    );
    const modules = JSON.parse(loaded) as string[];
    expect(modules.filter((file) => /react/.test(file) && /development/.test(file))).toEqual([]);
  });
});

describe('the built share page', () => {
  it('comes filled with a shared message set: its name in the title and heading, its messages, never indexed', async () => {
    const page = await openPage(`/s/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['cache-control']).toBe('no-store');
    const html = page.body;
    // The name between isolate marks in the title (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md).
    expect(html).toMatch(/<title>\u2068Sleep &amp; &lt;rest&gt;\u2069[^<]*<\/title>/);
    expect(html).toMatch(/<h1[^>]*>Sleep &amp; &lt;rest&gt;<\/h1>/);
    expect(html).toContain('I rest well.');
    expect(html).toContain('I wake &lt;b&gt;rested&lt;/b&gt;.');
    // The data block the app starts from, as the API answers.
    const block = /<script type="application\/json" id="innerwave-shared">([^<]*)<\/script>/.exec(html);
    const answer = await app.inject({ method: 'GET', url: fillPath(API.shared, { token }) });
    expect(JSON.parse(block?.[1] ?? 'null')).toEqual({ status: 'ready', item: answer.json() });
    // The build's document around it: its head, stylesheet and scripts are all still there.
    const built = readFileSync(path.join(WEB_DIST_DIR, 'shared.html'), 'utf8');
    const beforeTitle = (document: string) => document.slice(0, document.indexOf('<title>'));
    expect(beforeTitle(html)).toBe(beforeTitle(built));
    expect(html.endsWith(built.slice(built.lastIndexOf('</div>') + '</div>'.length))).toBe(true);
  });

  it('has one URL: with a trailing slash it redirects there', async () => {
    const page = await openPage(`/s/${token}/`);
    expect(page.statusCode).toBe(301);
    expect(page.headers.location).toBe(`/s/${token}`);
  });

  it('answers 404 "Link not found" for a link never shared, never indexed either', async () => {
    const page = await openPage(`/s/${'B'.repeat(22)}`);
    expect(page.statusCode).toBe(404);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('Link not found');
    expect(page.body).not.toContain(NAME);
  });
});
