import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { mediaDir } from '../paths';

let t: TestApp;
const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
const AUDIO_FILE = 'audio/selfeggio/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.mp3';
/** The path and query of the file's signed URL, as the API hands it out. */
const signed = async (relative: string, options?: { downloadName?: string }) => {
  const url = new URL(await t.ctx.media.url(relative, options));
  return `${url.pathname}${url.search}`;
};
let AUDIO_URL: string;

beforeAll(async () => {
  t = await createTestApp();
  AUDIO_URL = await signed(AUDIO_FILE);
  const media = mediaDir(t.dataDir);
  const put = (relative: string, bytes: Buffer | string) => {
    mkdirSync(path.dirname(path.join(media, relative)), { recursive: true });
    writeFileSync(path.join(media, relative), bytes);
  };
  put('audio/selfeggio/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.mp3', AUDIO);
  put('covers/fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210.webp', 'webp');
  put('profile-images/avatar.jpg', 'jpg');
  put('logo.png', 'png');
  put('applications/Innerwave-Setup-1.2.0.exe', 'MZ');
  put('applications/innerwave.dmg', 'dmg');
  // Outside the media folder: none of the escapes below may reach it.
  writeFileSync(path.join(t.dataDir, 'secret.txt'), 'do not serve');
});
afterAll(() => t.close());

describe('/media/', () => {
  it('serves a file with its type, length, ETag and an immutable cache for content-addressed names', async () => {
    const res = await t.app.inject({ method: 'GET', url: AUDIO_URL });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['content-length']).toBe('1000');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toBeTruthy();
    // Private, for as long as the link works (at least 6 hours, at most its window more).
    const maxAge = Number(/^private, max-age=(\d+), immutable$/.exec(String(res.headers['cache-control']))?.[1]);
    const expires = Number(new URL(AUDIO_URL, 'http://x').searchParams.get('expires'));
    expect(maxAge).toBeGreaterThanOrEqual(6 * 3600 - 5);
    expect(Math.abs(maxAge - (expires - Date.now() / 1000))).toBeLessThan(5);
    expect(res.rawPayload.equals(AUDIO)).toBe(true);
  });

  it('answers byte ranges with 206 and bad ranges with 416', async () => {
    const res = await t.app.inject({ method: 'GET', url: AUDIO_URL, headers: { range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/1000');
    expect(res.rawPayload.equals(AUDIO.subarray(100, 200))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url: AUDIO_URL, headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe('bytes 990-999/1000');
    const bad = await t.app.inject({ method: 'GET', url: AUDIO_URL, headers: { range: 'bytes=5000-6000' } });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */1000');
  });

  it.each([
    ['bytes=1e3-', 200],
    ['bytes=+5-', 200],
    ['bytes= 5-', 200],
    ['bytes=0x10-', 200],
    ['bytes=5-3', 200],
    ['bytes=5-7,2-1', 200],
    ['bytes=5', 200],
    ['lines=5-', 200],
    ['bytes=-0', 416],
  ])(
    'ignores a Range that is not a valid range (the whole file) and refuses an unsatisfiable one: %s',
    async (range, status) => {
      const res = await t.app.inject({ method: 'GET', url: AUDIO_URL, headers: { range } });
      expect(res.statusCode).toBe(status);
      if (status === 200) expect(res.rawPayload.equals(AUDIO)).toBe(true);
      else expect(res.headers['content-range']).toBe('bytes */1000');
    },
  );

  it('answers a valid Range with spaces around its commas', async () => {
    const res = await t.app.inject({ method: 'GET', url: AUDIO_URL, headers: { range: 'bytes=100-199 , 150-299' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-299/1000');
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: AUDIO_URL });
    const again = await t.app.inject({
      method: 'GET',
      url: AUDIO_URL,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it.each([
    ['covers/fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210.webp', 'image/webp'],
    ['profile-images/avatar.jpg', 'image/jpeg'],
    ['logo.png', 'image/png'],
  ])('serves %s as %s', async (relative, type) => {
    const res = await t.app.inject({ method: 'GET', url: await signed(relative) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('revalidates names that are not content-addressed', async () => {
    const res = await t.app.inject({ method: 'GET', url: await signed('profile-images/avatar.jpg') });
    expect(res.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
  });

  it.each(['applications/Innerwave-Setup-1.2.0.exe', 'applications/innerwave.dmg'])(
    'serves the installer %s as a download',
    async (relative) => {
      const res = await t.app.inject({ method: 'GET', url: await signed(relative) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${path.basename(relative)}"; filename*=UTF-8''${path.basename(relative)}`,
      );
    },
  );

  it('downloads under the name signed into the URL', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: await signed('applications/innerwave.dmg', { downloadName: 'Innerwave-2.4.0 "beta".dmg' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Innerwave-2.4.0-beta-.dmg"; filename*=UTF-8''Innerwave-2.4.0-beta-.dmg`,
    );
  });

  it('serves nothing without a valid, unexpired signature', async () => {
    const unsigned = await t.app.inject({ method: 'GET', url: `/media/${AUDIO_FILE}` });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const other = new URL(`http://x${AUDIO_URL}`);
    const forged = await t.app.inject({
      method: 'GET',
      url: `/media/covers/fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210.webp${other.search}`,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ detail: 'This media link is not valid or has expired.' });
    other.searchParams.set('expires', String(Number(other.searchParams.get('expires')) + 3600));
    expect((await t.app.inject({ method: 'GET', url: `${other.pathname}${other.search}` })).statusCode).toBe(403);
    const renamed = new URL(`http://x${await signed('applications/innerwave.dmg', { downloadName: 'a.dmg' })}`);
    renamed.searchParams.set('download', 'evil.html');
    expect((await t.app.inject({ method: 'GET', url: `${renamed.pathname}${renamed.search}` })).statusCode).toBe(403);
  });

  it('refuses a URL once it has expired', async () => {
    const url = new URL(await t.ctx.media.url(AUDIO_FILE));
    const expires = Number(url.searchParams.get('expires')) * 1000;
    // At least six hours from now, at most twelve: stable within a window.
    expect(expires - Date.now()).toBeGreaterThanOrEqual(6 * 3600 * 1000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(12 * 3600 * 1000);
    expect(t.ctx.media.verify(url.pathname, url.searchParams, new Date(expires - 1000))).toEqual({
      ok: true,
      downloadName: undefined,
    });
    expect(t.ctx.media.verify(url.pathname, url.searchParams, new Date(expires + 1000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('sandboxes every media response and keeps it out of search engines', async () => {
    for (const url of [AUDIO_URL, `/media/${AUDIO_FILE}`, await signed('missing.mp3')]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-robots-tag']).toBe('noindex');
    }
  });

  it.each(['', 'audio', 'audio/', 'missing.mp3'])(
    'answers the signed, missing /media/%s with a 404 JSON body',
    async (relative) => {
      const url = new URL(`http://x${await signed(relative)}`);
      const res = await t.app.inject({ method: 'GET', url: `/media/${relative}${url.search}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    },
  );

  it.each([
    '/media/../secret.txt',
    '/media/%2e%2e/secret.txt',
    '/media/%2E%2E/secret.txt',
    '/media/.%2e/secret.txt',
    '/media/%2e%2e%2fsecret.txt',
    '/media/%2e%2e%2Fsecret.txt',
    '/media/%252e%252e/secret.txt',
    '/media/%252e%252e%252fsecret.txt',
    '/media/..%2fsecret.txt',
    '/media/..%5csecret.txt',
    '/media/..\\secret.txt',
    '/media/audio/..%2f..%2fsecret.txt',
    '/media/%c0%ae%c0%ae/secret.txt',
    '/media/secret.txt%00.mp3',
    '/media/logo.png%00',
    '/media/%2fetc/passwd',
    '/media//etc/passwd',
    '/media/.hidden',
  ])('answers %s with a 404 JSON body', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    expect(res.body).not.toContain('do not serve');
  });
});
