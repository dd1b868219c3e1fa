import type { FastifyInstance } from 'fastify';
import { pageOf, PAGE_CRAWLING, PAGES } from '@shared/contract/paths';

// robots.txt and sitemap.xml (docs/product/screens.md#for-search-engines), made from the one list of
// the app's pages (PAGES and PAGE_CRAWLING) with the site's address (PUBLIC_URL), which only the server
// knows: the build does not.

const pagesThat = (crawling: (typeof PAGE_CRAWLING)[keyof typeof PAGES]) =>
  Object.entries(PAGES).flatMap(([key, pattern]) =>
    PAGE_CRAWLING[key as keyof typeof PAGES] === crawling ? [pattern] : [],
  );

/** The pages the sitemap lists, each in its one form. */
export const LISTED_PAGES: readonly string[] = pagesThat('listed');

/**
 * What robots.txt disallows: the API, and each disallowed page up to its first parameter (a rule is a
 * prefix of the paths it covers), less those another rule already covers.
 */
export const DISALLOWED_PREFIXES: readonly string[] = (() => {
  const prefixes = [...new Set(['/api/', ...pagesThat('disallowed').map((pattern) => pattern.replace(/:.*$/, ''))])];
  return prefixes.filter((prefix) => !prefixes.some((other) => other !== prefix && prefix.startsWith(other))).sort();
})();

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(publicUrl: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...LISTED_PAGES.map((page) => `  <url><loc>${escapeXml(publicUrl + page)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

/** The pages whose answers tell crawlers not to list them (`X-Robots-Tag: noindex`): all but the listed ones. */
const UNLISTED_PAGES: ReadonlySet<string> = new Set([...pagesThat('disallowed'), ...pagesThat('noindex')]);

/**
 * Whether the answer to a GET or HEAD of `pathname` (no query) is to carry `X-Robots-Tag: noindex`: a
 * path of an unlisted page, in any form (its other forms redirect to it), with any parameter (an
 * unknown share link's 404 too). The API, media and built files are never pages, and are not looked at.
 */
export function unlistedPage(pathname: string): boolean {
  if (/^\/(api|media|assets)\//.test(pathname)) return false;
  const page = pageOf(pathname);
  return page !== undefined && UNLISTED_PAGES.has(page.pattern);
}

/**
 * Adds `X-Robots-Tag: noindex` to every answer of an unlisted page (PAGE_CRAWLING): a page for someone
 * signed in, staff, an e-mailed link, a share link. Registered before the modules, so it reaches the
 * routes of theirs that answer pages (the share page, a program's page) as well as the app's own.
 */
export function registerRobotsTag(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && unlistedPage(request.url.split('?')[0] ?? '/'))
      reply.header('X-Robots-Tag', 'noindex');
    done();
  });
}

/** Crawlers read these about once a day; they change only with a release or PUBLIC_URL. */
const CRAWLER_FILE_CACHING = 'public, max-age=86400';

/** Serves /robots.txt and /sitemap.xml for the site at `publicUrl`. */
export function registerCrawlerFiles(app: FastifyInstance, publicUrl: string): void {
  const files = [
    { url: '/robots.txt', type: 'text/plain; charset=utf-8', body: robotsTxt(publicUrl) },
    { url: '/sitemap.xml', type: 'application/xml; charset=utf-8', body: sitemapXml(publicUrl) },
  ];
  for (const { url, type, body } of files) {
    app.get(url, { schema: { hide: true } }, (_request, reply) =>
      reply.header('Content-Type', type).header('Cache-Control', CRAWLER_FILE_CACHING).send(body),
    );
  }
}
