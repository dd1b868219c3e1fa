import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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
import { SESSION } from '../src/web/lib/session-keys.ts';
import { buildWeb } from '../scripts/build-state.mjs';

// The share page `/s/{token}` as the built app sends it: the server fills the build's own shared.html with
// the renderer the build wrote beside it (docs/decisions/024-the-server-fills-the-share-page.md). The
// server's tests fill a document of their own making; only this one would see the two drift apart.

let app: Awaited<ReturnType<typeof buildApp>>;
let close: () => Promise<void>;
let token: string;
let soundToken: string;
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
  const messageIds: number[] = [];
  for (const message_text of MESSAGES)
    messageIds.push((await call(fillPath(API.myCategoryMessages, { id: category.id }), { message_text })).json().id);
  token = (await call(fillPath(API.myCategoryShare, { id: category.id }))).json().token;
  const subliminal = await call(API.subliminals, {
    name: 'Evening calm',
    playlist: [{ message_text: MESSAGES[0], source: 'own', message_id: messageIds[0] }],
    settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
    sound: { volume: 0.8, layers: [{ kind: 'noise', colour: 'pink', gain_db: -24 }] },
  });
  expect(subliminal.statusCode, subliminal.body).toBe(201);
  soundToken = (await call(fillPath(API.subliminalShare, { id: subliminal.json().id }))).json().token;
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

/** jsdom, which the web tests run in (it has no types of its own here). */
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (
    html: string,
    options: { runScripts: 'dangerously'; url: string; beforeParse: (window: Window & typeof globalThis) => void },
  ) => { window: Window & typeof globalThis };
};

/** The built file `/assets/…` (a URL path of the built app) as text. */
const builtFile = (urlPath: string) => readFileSync(path.join(WEB_DIST_DIR, urlPath), 'utf8');

/** The built chunk `file` and every chunk it imports statically, as URL paths. */
function withStaticImports(file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const [, imported] of builtFile(file).matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g))
    withStaticImports(`/assets/${imported}`, into);
  return into;
}

/**
 * A pre-rendered page's loader: its entry, its own files, the app's and the portal layout's (docs/decisions/097,
 * docs/decisions/103).
 */
function loaderOf(html: string) {
  const loader =
    /<script data-entry="([^"]+)" data-preload="([^"]*)"(?: data-app="([^"]*)")?(?: data-portal="([^"]*)")?>/.exec(
      html,
    );
  if (!loader) throw new Error('the page has no loader');
  const files = (list: string | undefined) => (list ?? '').split(' ').filter(Boolean);
  return { entry: loader[1]!, own: files(loader[2]), app: files(loader[3]), portal: files(loader[4]) };
}

/** The chunk of the app that a page's own code imports when it hands over (lean-page.tsx, import('./spa')). */
function handOverChunk(entry: string, own: readonly string[]): string {
  const found = [entry, ...own]
    .flatMap((file) => [...builtFile(file).matchAll(/import\(`\.\/(spa-[\w-]+\.js)`\)/g)])
    .map((match) => `/assets/${match[1]}`);
  expect(new Set(found).size).toBe(1);
  return found[0]!;
}

/** The chunks `chunk` imports when it runs (`import(…)`) whose file names begin `name-`. */
const dynamicImportsOf = (chunk: string, name: string) =>
  [...builtFile(chunk).matchAll(new RegExp(`import\\(\`\\./(${name}-[\\w-]+\\.js)\`\\)`, 'g'))].map(
    (match) => `/assets/${match[1]}`,
  );

/** The portal layout's chunk and all it imports, which a signed-in visit of a page in the portal's chrome needs. */
const portalLayoutNeeds = (spa: string) => {
  const layout = [...new Set(dynamicImportsOf(spa, 'portal-layout'))];
  expect(layout).toHaveLength(1);
  return withStaticImports(layout[0]!);
};

/**
 * What the page's loader asks for once the page has painted, for a visitor or someone signed in: the modulepreload
 * links it adds, in order, with `import <entry>` where it imports the page's entry. jsdom has no module loader:
 * the loader's import is noted instead of run; the rest is the built page, its head's script included.
 */
async function askedFor(html: string, { signedIn = false, url = 'http://localhost/s/x' } = {}): Promise<string[]> {
  const links = (document: Document) =>
    [...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href') ?? '');
  let imported: { entry: string; after: number } | undefined;
  const dom = new JSDOM(html.replace('import(d.entry)', 'window.noteImport(d.entry)'), {
    runScripts: 'dangerously',
    url,
    beforeParse(window) {
      // No paint timing here: the loader starts at once, as it does in such a browser.
      Object.defineProperty(window, 'PerformanceObserver', { value: undefined });
      Object.assign(window, {
        noteImport: (entry: string) => (imported = { entry, after: links(window.document).length }),
        matchMedia: () => ({ matches: false }),
      });
      if (signedIn) window.localStorage.setItem(SESSION.storageKeys.access, 'a');
    },
  });
  // It adds links for about 8 ms a task: done once a while has passed with nothing more.
  for (let count = -1; count !== links(dom.window.document).length;) {
    count = links(dom.window.document).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const asked = links(dom.window.document);
  dom.window.close();
  if (imported) asked.splice(imported.after, 0, `import ${imported.entry}`);
  return asked;
}

describe('the share page’s app code (decision 097)', () => {
  it('is listed by the built page’s loader: the chunk its hand-over imports, the share route’s, and all they import', () => {
    const { entry, own, app, portal } = loaderOf(builtFile('/shared.html'));
    // What the page's own code asks for when it hands over (lean-page.tsx, import('./spa')), as the build named it.
    const handOver = handOverChunk(entry, own);
    expect(app[0]).toBe(handOver);
    // The router's first page there: the share route's chunk, which the app's chunk imports when it opens.
    const route = dynamicImportsOf(handOver, 'shared');
    expect(route).toHaveLength(1);
    const needed = new Set([...withStaticImports(handOver), ...withStaticImports(route[0]!)]);
    expect([...needed].filter((file) => !app.includes(file) && !own.includes(file))).toEqual([]);
    // A signed-in visit shows it in the portal's layout (docs/decisions/103): its files, less those already listed.
    const layout = [...portalLayoutNeeds(handOver)];
    expect(layout.filter((file) => !portal.includes(file) && !app.includes(file) && !own.includes(file))).toEqual([]);
    // Listed once, and none of the page's own files again.
    const listed = [...app, ...portal];
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((file) => own.includes(file) || file === entry)).toEqual([]);
  });

  it('is marked for a subliminal with sound, which hands over to the app, and for no other link', async () => {
    const withSound = await openPage(`/s/${soundToken}`);
    expect(withSound.statusCode).toBe(200);
    const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0];
    expect(htmlTag(withSound.body)).toBe('<html lang="en" class="hands-over">');
    expect(htmlTag((await openPage(`/s/${token}`)).body)).toBe('<html lang="en">');
    expect(htmlTag((await openPage(`/s/${'B'.repeat(22)}`)).body)).toBe('<html lang="en">');
  });

  it('is asked for right after the page’s own code by a visit that starts the app, and never by another', async () => {
    const withSound = (await openPage(`/s/${soundToken}`)).body;
    const { entry, own, app, portal } = loaderOf(withSound);
    expect(app).not.toEqual([]);
    expect(portal).not.toEqual([]);
    const ownFirst = [...own, `import ${entry}`];
    // A visitor of a subliminal with sound and someone signed in (the head's script marks the visit) use the app;
    // only someone signed in sees the page in the portal's layout.
    expect(await askedFor(withSound)).toEqual([...ownFirst, ...app]);
    const messages = (await openPage(`/s/${token}`)).body;
    expect(await askedFor(messages, { signedIn: true })).toEqual([...ownFirst, ...app, ...portal]);
    // A visitor of a message set never does.
    expect(await askedFor(messages)).toEqual(ownFirst);
    // Three pages parsed and run in jsdom: seconds on a loaded machine.
  }, 60_000);
});

// The other pre-rendered pages whose entry starts the app at once for someone signed in (build/pages.ts): such a
// visit asks for the app's code from the first paint too; a visitor, whose page never starts the app, never does
// (docs/decisions/103-the-app-comes-sooner-for-every-signed-in-visit.md).
describe.each([
  ['terms', '/terms/', { portalFrame: true }],
  ['privacy', '/privacy/', { portalFrame: true }],
  ['portal-home', '/portal/home/', { portalFrame: true }],
  ['login', '/login', { portalFrame: false }],
  ['signup', '/signup', { portalFrame: false }],
  ['reset-request', '/resetpassword/', { portalFrame: false }],
] as const)('the app code of %s.html (decision 103)', (name, pagePath, { portalFrame }) => {
  it('is listed by its loader: the app’s chunk, its route’s, all they import, and the portal layout’s where it wears it', () => {
    const { entry, own, app, portal } = loaderOf(builtFile(`/${name}.html`));
    const handOver = handOverChunk(entry, own);
    expect(app[0]).toBe(handOver);
    // The route's chunk is named after its module (app/routes/<name>.tsx), as the page's own entry is: not that one.
    const route = dynamicImportsOf(handOver, name).filter((file) => file !== entry);
    expect(route).toHaveLength(1);
    const needed = new Set([...withStaticImports(handOver), ...withStaticImports(route[0]!)]);
    expect([...needed].filter((file) => !app.includes(file) && !own.includes(file))).toEqual([]);
    if (portalFrame) {
      const layout = [...portalLayoutNeeds(handOver)];
      expect(layout.filter((file) => !portal.includes(file) && !app.includes(file) && !own.includes(file))).toEqual([]);
    } else expect(portal).toEqual([]);
    const listed = [...app, ...portal];
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((file) => own.includes(file) || file === entry)).toEqual([]);
  });

  it('is asked for right after the page’s own code by a signed-in visit, and never by a visitor', async () => {
    const html = builtFile(`/${name}.html`);
    const { entry, own, app, portal } = loaderOf(html);
    expect(app).not.toEqual([]);
    const ownFirst = [...own, `import ${entry}`];
    const url = `http://localhost${pagePath}`;
    expect(await askedFor(html, { signedIn: true, url })).toEqual([...ownFirst, ...app, ...portal]);
    expect(await askedFor(html, { url })).toEqual(ownFirst);
  }, 60_000);
});
