import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { API, fillPath } from '@shared/contract';
import { savedSubliminals } from '../db/schema';
import { buildTestRenderers } from '../test/renderers';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { ownTestKit } from './test-kit';

// The share page `/s/{token}` filled by the server with what its link shares, by the web build's
// renderer (docs/decisions/024-the-server-fills-the-share-page.md).

const EARLY_READ = "(function(){if(document.getElementById('innerwave-shared'))return;window.read=1})()";
/** The loading document as the build makes it, less its pre-rendered page and stylesheet. */
const LOADING = `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Innerwave</title><script data-shared-read>${EARLY_READ}</script></head><body><div id="root"></div><script type="module" src="/assets/shared.js"></script></body></html>`;

function writeWebDir(loading = LOADING) {
  const webDir = mkdtempSync(path.join(tmpdir(), 'innerwave-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  writeFileSync(path.join(webDir, 'shared.html'), loading);
  writeFileSync(path.join(webDir, 'pages.json'), JSON.stringify({ '/s/*': 'shared.html' }));
  return webDir;
}

let renderDir: string;
let webDir: string;
let t: TestApp;
beforeAll(async () => {
  renderDir = await buildTestRenderers();
  webDir = writeWebDir();
  t = await createTestApp({}, { webDir, renderDir });
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
  rmSync(renderDir, { recursive: true, force: true });
});

const { call, setPlan } = ownTestKit(() => t);
const settings = { flashSpeed: 120, displayInterval: 2500, messageColor: '#7DD3FC', fontSize: 30, theme: 'ocean' };
const NAME = '</script><script>alert("name")</script> & calm';
const MESSAGES = ['I am <b>calm</b>.', '<img src=x onerror=alert(1)>'];

async function sharedSubliminal(sound: object | null = null) {
  const owner = await signedInUser(t.ctx);
  await setPlan(owner, 'pro');
  const playlist = MESSAGES.map((message_text, index) => ({ message_text, source: 'own', message_id: index + 1 }));
  const subliminal = (await call(owner, 'POST', API.subliminals, { name: NAME, playlist, settings, sound })).json();
  const sharePath = fillPath(API.subliminalShare, { id: subliminal.id });
  const link = (await call(owner, 'POST', sharePath)).json();
  return { token: link.token as string, revoke: () => call(owner, 'DELETE', sharePath) };
}

const openPage = (token: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url: `/s/${token}?utm_source=mail`, headers: { accept: 'text/html', ...headers } });

/** The data block's JSON, and how many script elements the document holds. */
function dataBlockOf(html: string) {
  const block = /<script type="application\/json" id="innerwave-shared">([^<]*)<\/script>/.exec(html);
  return { data: block ? (JSON.parse(block[1]!) as unknown) : undefined, scripts: html.split('<script').length - 1 };
}

describe('the share page', () => {
  it('comes filled with what the link shares: its texts escaped, the data block closed, never stored', async () => {
    const { token } = await sharedSubliminal();
    const page = await openPage(token);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-encoding']).toBeUndefined();
    // Never listed by a search engine, wherever the link was found.
    expect(page.headers['x-robots-tag']).toBe('noindex');

    const html = page.body;
    expect(html).toContain(
      '<h1 dir="auto" class="mt-1 break-words text-3xl font-semibold">&lt;/script&gt;&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; &amp; calm</h1>',
    );
    expect(html).toContain('I am &lt;b&gt;calm&lt;/b&gt;.');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Play it with Innerwave');
    expect(html).toContain(`href="/login?redirect=${encodeURIComponent(`/s/${token}`)}"`);
    // Before the early read (which then reads nothing), and nothing in it ends it.
    expect(html.indexOf('id="innerwave-shared"')).toBeLessThan(html.indexOf('<script data-shared-read>'));
    const { data, scripts } = dataBlockOf(html);
    expect(scripts).toBe(3);
    expect(html).not.toContain('</script><script>alert');
    const answer = await t.app.inject({ method: 'GET', url: fillPath(API.shared, { token }) });
    expect(data).toEqual({ status: 'ready', item: answer.json() });

    // The early read is allowed by its hash, as on the document the build made.
    const hash = `'sha256-${createHash('sha256').update(EARLY_READ).digest('base64')}'`;
    expect(String(page.headers['content-security-policy'])).toContain(hash);
  });

  it('shows each text its owner typed in its own box: a direction control stored before decision 063 reorders nothing after it', async () => {
    const { token } = await sharedSubliminal();
    // Put in the database directly: the API refuses a direction control inside a text now.
    const name = 'Sleep \u202etxt.exe';
    const playlist = [
      { message_text: 'I rest \u202eeasy', source: 'own', message_id: 1 },
      ...MESSAGES.slice(1).map((message_text) => ({ message_text, source: 'own' })),
    ];
    await t.database.db.update(savedSubliminals).set({ name, playlist }).where(eq(savedSubliminals.shareToken, token));
    const html = (await openPage(token)).body;
    expect(html).toContain(`<h1 dir="auto" class="mt-1 break-words text-3xl font-semibold">${name}</h1>`);
    expect(html).toContain('<li dir="auto" class="break-words py-2.5">I rest \u202eeasy</li>');
    expect(html).toContain(`<title>\u2068${name}\u2069 · Innerwave</title>`);
  });

  it('is compressed as the browser accepts, and answers HEAD', async () => {
    const { token } = await sharedSubliminal();
    const plain = (await openPage(token)).body;
    const br = await openPage(token, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gzip = await openPage(token, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);

    const head = await openPage(token, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-store');
    expect(head.body).toBe('');
  });

  it('answers 404 with "Link not found" for a link never shared, revoked, or that cannot exist', async () => {
    const { token, revoke } = await sharedSubliminal();
    expect((await revoke()).statusCode).toBe(204);
    // A link a mail client mangled into invalid percent-encoding, or ran on into the next words, too.
    for (const gone of [token, 'B'.repeat(22), 'short', '%3Cscript%3E', '%ZZ', '%3Cscript%3E%c0', 'B'.repeat(300)]) {
      const page = await openPage(gone);
      expect(page.statusCode, gone).toBe(404);
      expect(page.headers['x-robots-tag'], gone).toBe('noindex');
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('Link not found');
      expect(page.body).not.toContain('<script>');
      expect(dataBlockOf(page.body).data).toEqual({ status: 'gone' });
    }
  });

  it('at its path with a trailing slash redirects to its one URL, as every page', async () => {
    const { token } = await sharedSubliminal();
    const page = await t.app.inject({ method: 'GET', url: `/s/${token}/?x=1`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(301);
    expect(page.headers.location).toBe(`/s/${token}?x=1`);
  });

  it('comes filled with the top of a subliminal with sound, and all of it in the data block for the app', async () => {
    const { token } = await sharedSubliminal({
      volume: 0.7,
      layers: [{ kind: 'noise', colour: 'pink', gain_db: -18 }],
    });
    const page = await openPage(token);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('&lt;/script&gt;&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; &amp; calm</h1>');
    expect(page.body).toContain('theme · each message shows for');
    // The app shows its sound, what a visitor can do, and its messages (its page names the layers).
    expect(page.body).not.toContain('I am &lt;b&gt;calm&lt;/b&gt;.');
    expect(page.body).not.toContain('Play it with Innerwave');
    const answer = await t.app.inject({ method: 'GET', url: fillPath(API.shared, { token }) });
    expect(dataBlockOf(page.body).data).toEqual({ status: 'ready', item: answer.json() });
  });

  it('sends the loading document when the database fails, so the page reads the link itself', async () => {
    const { token } = await sharedSubliminal();
    const select = vi.spyOn(t.database.db, 'select').mockImplementationOnce(() => {
      throw new Error('connection lost');
    });
    try {
      const page = await openPage(token);
      expect(page.statusCode).toBe(200);
      expect(page.body).toBe(LOADING);
    } finally {
      select.mockRestore();
    }
  });
});

describe('the share page and the API', () => {
  it('count against one limit per client address; past it the page sends the loading document', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_ADDRESS: '3' }, { webDir, renderDir });
    try {
      const token = 'B'.repeat(22);
      const page = () => limited.app.inject({ method: 'GET', url: `/s/${token}` });
      const api = () => limited.app.inject({ method: 'GET', url: fillPath(API.shared, { token }) });
      expect((await page()).statusCode).toBe(404);
      expect((await api()).statusCode).toBe(404);
      expect((await page()).statusCode).toBe(404);
      expect((await api()).statusCode).toBe(429);
      const past = await page();
      expect(past.statusCode).toBe(200);
      expect(past.body).toBe(LOADING);
    } finally {
      await limited.close();
    }
  });
});

describe('a share page renderer that does not fit, load or render', () => {
  /** The page of an unknown link, which a working renderer answers 404. */
  async function pageWith(web: string, renderers: string) {
    const other = await createTestApp({}, { webDir: web, renderDir: renderers });
    try {
      return await other.app.inject({ method: 'GET', url: `/s/${'B'.repeat(22)}` });
    } finally {
      await other.close();
    }
  }
  const fakeRenderers = (source: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-render-'));
    writeFileSync(path.join(dir, 'shared.js'), source);
    return dir;
  };

  it('leaves the loading document for every link', async () => {
    const unfitting = writeWebDir(LOADING.replace(' data-shared-read', ''));
    const broken = fakeRenderers('export const sharedPageFiller = ;');
    const failing = fakeRenderers("export const sharedPageFiller = () => () => { throw new Error('cannot render'); };");
    try {
      for (const [web, renderers] of [
        [unfitting, renderDir],
        [webDir, broken],
        [webDir, failing],
      ] as const) {
        const page = await pageWith(web, renderers);
        expect(page.statusCode).toBe(200);
        expect(page.headers['cache-control']).toBe('no-cache');
      }
    } finally {
      for (const dir of [unfitting, broken, failing]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
