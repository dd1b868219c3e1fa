import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedPrograms } from '../guidance/programs';
import { createTestApp, type TestApp } from '../test/test-app';

const INDEX =
  '<!doctype html><html><head><script>document.documentElement.dataset.x="1"</script></head><body><div id="root"></div></body></html>';
const HOME = `<!doctype html><html><head><script>document.documentElement.dataset.y="2"</script></head><body><div id="root"><h1>Home</h1>${'<p>pre-rendered</p>'.repeat(100)}</div></body></html>`;
const TERMS = '<!doctype html><html><body><div id="root"><h1>Terms</h1></div></body></html>';
const LOGIN =
  '<!doctype html><html><head><link rel="modulepreload" href="/assets/login.js"></head><body></body></html>';
const SHARED =
  '<!doctype html><html><head><link rel="modulepreload" href="/assets/shared.js"></head><body></body></html>';
const ICO = Buffer.from([0, 0, 1, 0, 0, 0]);
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const scriptHash = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

function writeWebDir(withHome: boolean, withManifest = withHome) {
  const webDir = mkdtempSync(path.join(tmpdir(), 'innerwave-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), INDEX);
  if (withHome) {
    writeFileSync(path.join(webDir, 'home.html'), HOME);
    writeFileSync(path.join(webDir, 'home.html.gz'), gzipSync(HOME));
  }
  if (withManifest) {
    writeFileSync(path.join(webDir, 'terms.html'), TERMS);
    writeFileSync(path.join(webDir, 'login.route.html'), LOGIN);
    writeFileSync(path.join(webDir, 'shared.route.html'), SHARED);
    const pages = {
      '/': 'home.html',
      '/terms/': 'terms.html',
      '/login': 'login.route.html',
      '/s/*': 'shared.route.html',
    };
    writeFileSync(path.join(webDir, 'pages.json'), JSON.stringify({ ...pages, '/gone/': 'gone.html' }));
  }
  writeFileSync(path.join(webDir, 'assets/app-3f2a1b.js'), 'console.log(1)');
  writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(webDir, 'favicon.ico'), ICO);
  writeFileSync(path.join(webDir, 'apple-touch-icon.png'), PNG);
  return webDir;
}

describe('the built SPA', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = writeWebDir(true);
    t = await createTestApp({}, { webDir });
    await seedPrograms(t.database.db);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it.each([
    '/subliminals',
    '/signup/check-inbox',
    '/activation/MQ/abc-123',
    '/password-reset/MQ/abc-123?x=1',
    '/email/confirm/MQ/abc-123',
    '/programs/seven-nights-of-rest',
    '/programs/clear-intentions?day=2',
    '/portal/home/',
    '/privacy/',
    '/admin',
    '/admin/users',
    '/logout',
  ])('answers the deep link %s with index.html', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(res.statusCode, method).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      if (method === 'GET') expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it.each([
    '/no-such-page',
    '/portal/nonsense',
    '/portal',
    '/admin/nonsense',
    '/s/',
    '/s/abc/def',
    '/sx/abc',
    '/terms/x',
    '/programs//',
    '/activation/MQ',
    '/login//',
    '//login',
    '/gone/',
  ])('answers %s, no page of the app, with the app (which says Page not found) and 404', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain('script-src');
      if (method === 'GET') expect(res.body).toBe(INDEX);
    }
  });

  it.each([
    '/programs/sleep-well',
    '/programs/Seven-Nights-Of-Rest',
    `/programs/${'a'.repeat(61)}`,
    '/programs/no%20such?day=2',
    '/programs/%00',
  ])('answers %s, a program page naming no program, with the app (which says so) and 404', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toContain('script-src');
      if (method === 'GET') expect(res.body).toBe(INDEX);
    }
  });

  it('answers a program page as usual when it cannot look the program up', async () => {
    // Every query fails while the page is asked for (the server's own jobs may query meanwhile too).
    const select = vi.spyOn(t.database.db, 'select').mockImplementation(() => {
      throw new Error('the database went away');
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/programs/sleep-well', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(select).toHaveBeenCalled();
    } finally {
      select.mockRestore();
    }
  });

  it.each([
    ['/terms', '/terms/'],
    ['/privacy?x=1', '/privacy/?x=1'],
    ['/portal/home', '/portal/home/'],
    ['/resetpassword', '/resetpassword/'],
    ['/login/?redirect=%2Fmusic', '/login?redirect=%2Fmusic'],
    ['/activation/MQ/abc-123/', '/activation/MQ/abc-123'],
    ['/admin/', '/admin'],
    ['/programs/', '/programs'],
    ['/programs/sleep-well/?day=2', '/programs/sleep-well?day=2'],
    // The page's own words in their case; what the path names (a slug, a link's token) as given.
    ['/Terms/', '/terms/'],
    ['/Subliminals', '/subliminals'],
    ['/PROGRAMS/Sleep-Well', '/programs/Sleep-Well'],
    ['/S/AbC123', '/s/AbC123'],
    ['/Activation/MQ/abc-123', '/activation/MQ/abc-123'],
  ])('redirects %s to the one URL of its page, %s', async (url, location) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(location);
  });

  it.each([
    ['/terms/', TERMS],
    ['/login', LOGIN],
    ['/login?redirect=%2Fmusic', LOGIN],
    ['/s/AbC123', SHARED],
  ])('answers %s with the page the build made for it (pages.json)', async (url, body) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toBe(body);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['/login?next=%00', LOGIN],
    ['/?a=%00', HOME],
    ['/s/AbC123?x=%00', SHARED],
    ['/s/%00', SHARED, 200],
    // A path naming nothing, NUL or not, gets the app, which says Not found.
    ['/subliminals%00', INDEX, 404],
    ['/assets/%00', INDEX, 404],
  ])('answers %s, a page with a NUL in its query or path, with its document', async (url, body, status = 200) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(res.statusCode, method).toBe(status);
      expect(res.headers['content-type']).toContain('text/html');
      if (method === 'GET') expect(res.body).toBe(body);
    }
  });

  it.each([
    ['/%ZZ', INDEX, 404],
    ['/password-reset/%ZZ/abc?x=%ZZ', INDEX, 200],
    ['/subliminals%', INDEX, 404],
    ['/%c0%ae%ff', INDEX, 404],
    ['/s/%ZZ', SHARED, 200],
  ])(
    'answers %s, a page path that is not valid percent-encoding, as any page path naming nothing',
    async (url, body, status) => {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
        expect(res.statusCode, method).toBe(status);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.headers['content-security-policy']).toContain('script-src');
        if (method === 'GET') expect(res.body).toBe(body);
      }
    },
  );

  it('answers / with the pre-rendered home page, compressed when the browser accepts it, and 304 when unchanged', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/?utm_source=mail' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(HOME);
    expect(plain.headers['cache-control']).toBe('no-cache');

    const gzipped = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(HOME);

    const etag = plain.headers.etag;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('allows the inline theme scripts of both pages by their hashes and no other inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const policy = String(res.headers['content-security-policy']);
    const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src'));
    expect(scriptSrc?.trim().split(' ').sort()).toEqual(
      [
        'script-src',
        "'self'",
        "'wasm-unsafe-eval'",
        scriptHash('document.documentElement.dataset.x="1"'),
        scriptHash('document.documentElement.dataset.y="2"'),
      ].sort(),
    );
  });

  it('lets a page use the microphone, full screen and the wake lock from its own origin, and nothing else', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const allowed = String(page.headers['permissions-policy']).split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['microphone=(self)', 'camera=()', 'geolocation=()', 'payment=()']));
    // Data is no page: an API answer has no features to allow.
    const data = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(data.headers['permissions-policy']).toBeUndefined();
  });

  it('lets nothing frame a page, an API answer or a file, and says so alike in both framing headers', async () => {
    // No page of ours frames another (the web app has no iframe), so X-Frame-Options says what the policy's
    // frame-ancestors 'none' says; a browser that reads both must not find them disagreeing.
    for (const url of ['/', '/terms/', '/subliminals', '/api/health', '/api/docs/', '/assets/app-3f2a1b.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect([url, res.headers['x-frame-options']]).toEqual([url, 'DENY']);
      const policy = String(res.headers['content-security-policy']);
      expect([url, policy.match(/frame-ancestors[^;]*/g)]).toEqual([url, ["frame-ancestors 'none'"]]);
    }
  });

  it('caches hashed assets for a year, the icons for a week, and revalidates the pages', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-3f2a1b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/terms/', '/subliminals']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect([url, page.statusCode, page.headers['cache-control']]).toEqual([url, 200, 'no-cache']);
    }
  });

  it.each([
    ['/favicon.ico', 'image/vnd.microsoft.icon', ICO],
    ['/favicon.svg', 'image/svg+xml', undefined],
    ['/apple-touch-icon.png', 'image/png', PNG],
  ])('serves %s, which browsers ask for by its name, cached for a week', async (url, type, bytes) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, method).toBe(200);
      expect(res.headers['content-type']).toContain(type);
      expect(res.headers['cache-control']).toBe('public, max-age=604800');
      if (method === 'GET' && bytes) expect(res.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('serves robots.txt: the pages for someone signed in, staff, e-mailed and shared links disallowed, and the sitemap named', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Disallow: /activation/',
        'Disallow: /admin',
        'Disallow: /api/',
        'Disallow: /applications',
        'Disallow: /email/confirm/',
        'Disallow: /logout',
        'Disallow: /music',
        'Disallow: /password-reset/',
        'Disallow: /practice',
        'Disallow: /profile',
        'Disallow: /programs',
        'Disallow: /signup/check-inbox',
        'Disallow: /subliminals',
        'Disallow: /support',
        'Disallow: /welcome',
        '',
        'Sitemap: http://innerwave.test/sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it('serves sitemap.xml listing the public pages at PUBLIC_URL, each answering 200 at that URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/,
    );
    const urls = [...res.body.matchAll(/<url><loc>([^<]+)<\/loc><\/url>/g)].map((match) => match[1]);
    expect(urls).toEqual(
      ['/', '/signup', '/login', '/resetpassword/', '/portal/home/', '/terms/', '/privacy/'].map(
        (page) => `http://innerwave.test${page}`,
      ),
    );
    for (const url of urls) {
      const page = await t.app.inject({ method: 'GET', url: new URL(url!).pathname });
      expect([url, page.statusCode]).toEqual([url, 200]);
    }
  });

  it('tells crawlers not to list a page for someone signed in, staff, an e-mailed link or a share link', async () => {
    const unlisted = ['/subliminals', '/admin/users', '/activation/MQ/abc-123', '/password-reset/MQ/abc', '/s/abc'];
    for (const url of [...unlisted, '/Subliminals', '/profile/', '/s/nope?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.headers['x-robots-tag']]).toEqual([url, 'noindex']);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/music' });
    expect(head.headers['x-robots-tag']).toBe('noindex');
    for (const url of [
      '/',
      '/login',
      '/terms/',
      '/resetpassword/',
      '/portal/home/',
      '/no-such-page',
      '/robots.txt',
      '/api/users/me/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.headers['x-robots-tag']]).toEqual([url, undefined]);
    }
  });

  it("serves none of the build's own files by name: its page map and the pages' documents answer 404", async () => {
    for (const url of [
      '/pages.json',
      '/index.html',
      '/home.html',
      '/home.html.gz',
      '/terms.html',
      '/login.route.html',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { detail: 'Not found.' }]);
    }
    // Their pages still get them.
    expect((await t.app.inject({ method: 'GET', url: '/terms/' })).body).toBe(TERMS);
    expect((await t.app.inject({ method: 'GET', url: '/login' })).body).toBe(LOGIN);
  });

  it('keeps 404s for missing files, API paths and media', async () => {
    const missingMedia = new URL(await t.ctx.media.url('nothing.mp3'));
    for (const url of [
      '/assets/missing.js',
      '/api/nope',
      `${missingMedia.pathname}${missingMedia.search}`,
      // A path with a NUL (or a lone surrogate) names no file: not a field to refuse.
      '/media/%00',
      '/api/nope/%00',
      // Nor does a path that is not valid percent-encoding.
      '/api/%ZZ',
      '/api/users/%c0%ae/',
      '/media/%ZZ',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
      // Refused by the router or not, an answer carries the security headers.
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['content-security-policy'], url).toContain('default-src');
    }
  });
});

describe('a build without pages.json', () => {
  it('still answers / with home.html', async () => {
    const webDir = writeWebDir(true, false);
    const t = await createTestApp({}, { webDir });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).toBe(HOME);
      expect((await t.app.inject({ method: 'GET', url: '/terms/' })).body).toBe(INDEX);
    } finally {
      await t.close();
      rmSync(webDir, { recursive: true, force: true });
    }
  });
});

describe('a build without the home page', () => {
  it('answers / with the SPA', async () => {
    const webDir = writeWebDir(false);
    const t = await createTestApp({}, { webDir });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
    } finally {
      await t.close();
      rmSync(webDir, { recursive: true, force: true });
    }
  });
});
