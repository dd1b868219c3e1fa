import { expect, test } from './support/test';
import sharp from 'sharp';

// The files browsers, phones and crawlers ask for by name, as the built app serves them: the icons the
// build draws from favicon.svg, robots.txt and sitemap.xml.

/** The images of an ICO file: its directory's sizes, and each image decoded. */
async function icoImages(ico: Buffer) {
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
  return Promise.all(
    Array.from({ length: ico.readUInt16LE(4) }, async (_, i) => {
      const entry = 6 + 16 * i;
      const image = ico.subarray(
        ico.readUInt32LE(entry + 12),
        ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8),
      );
      const { width, height } = await sharp(image).metadata();
      return { listed: ico[entry], width, height };
    }),
  );
}

test('every page links the icons, and /favicon.ico and /apple-touch-icon.png are the app’s art', async ({
  page,
  request,
}) => {
  for (const path of ['/', '/login', '/subliminals']) {
    await page.goto(path);
    const links = await page
      .locator('head link[rel="icon"], head link[rel="apple-touch-icon"]')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('href')));
    expect([path, links]).toEqual([path, ['/favicon.ico', '/favicon.svg', '/apple-touch-icon.png']]);
  }

  const ico = await request.get('/favicon.ico');
  expect(ico.status()).toBe(200);
  expect(ico.headers()['content-type']).toBe('image/vnd.microsoft.icon');
  expect(ico.headers()['cache-control']).toBe('public, max-age=604800');
  expect(await icoImages(await ico.body())).toEqual(
    [16, 32, 48].map((size) => ({ listed: size, width: size, height: size })),
  );

  const touch = await request.get('/apple-touch-icon.png');
  expect(touch.status()).toBe(200);
  expect(touch.headers()['content-type']).toBe('image/png');
  const { data, info } = await sharp(await touch.body())
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([180, 180]);
  // Square and opaque to its corners: iOS rounds them itself, and shows transparent ones black.
  for (const [x, y] of [
    [0, 0],
    [179, 0],
    [0, 179],
    [179, 179],
  ])
    expect(data[(y! * info.width + x!) * info.channels + 3]).toBe(255);
});

test('robots.txt names the sitemap, and every page the sitemap lists answers 200 with its page, pre-rendered', async ({
  request,
  baseURL,
}) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`\nSitemap: ${baseURL}/sitemap.xml\n`);
  expect(await robots.text()).toContain('\nDisallow: /subliminals\n');

  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  const urls = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  expect(urls).toContain(`${baseURL}/`);
  expect(urls).toContain(`${baseURL}/terms/`);
  for (const url of urls) {
    const answer = await request.get(url, { maxRedirects: 0 });
    expect([url, answer.status()]).toEqual([url, 200]);
    // What a crawler reads without running the page's scripts: the page itself, not an empty shell.
    expect(await answer.text(), url).not.toContain('<div id="root"></div>');
  }
});
