import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ServedShared } from '@shared/contract';
import { pageOf } from '@shared/contract/paths';
import { registerCrawlerFiles } from './crawlers';
import { notFound } from './errors';
import { WEB_DIST_DIR } from '../paths';

/**
 * The built pages: the SPA's index.html (every route), and the documents the build made for given
 * paths (dist/web/pages.json, written by build/vite-plugins.ts from build/pages.ts): pre-rendered
 * pages with their own lean entries (`/` → home.html, `/terms/` → terms.html, …) and copies of
 * index.html that preload a route's chunks (`/login` → login.route.html). A key ending in `*` is a
 * prefix (`/s/*`). A build without pages.json still gets home.html for `/` when it has one.
 */
export interface WebPages {
  index: string;
  /** Path (or prefix ending in `*`) → file in the build directory. */
  routes: Record<string, string>;
  /** Every page's HTML, for the CSP hashes of their inline scripts. */
  documents: string[];
}

export function readWebPages(dir = WEB_DIST_DIR): WebPages | undefined {
  const read = (name: string) => {
    const file = path.join(dir, name);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
  const index = read('index.html');
  if (index === undefined) return undefined;
  const manifest = read('pages.json');
  const listed = manifest === undefined ? {} : (JSON.parse(manifest) as Record<string, string>);
  const routes: Record<string, string> = {};
  const documents = [index];
  for (const [route, file] of Object.entries(manifest === undefined ? { '/': 'home.html' } : listed)) {
    const html = read(file);
    if (html === undefined) continue;
    routes[route] = file;
    documents.push(html);
  }
  return { index, routes, documents };
}

/** The file for a page path: exact, with or without its trailing slash, or under a prefix; else index.html. */
export function pageFile(pages: WebPages, pathname: string): string {
  const other = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`;
  const exact = pages.routes[pathname] ?? (pathname === '/' ? undefined : pages.routes[other]);
  if (exact) return exact;
  for (const [route, file] of Object.entries(pages.routes)) {
    if (route.endsWith('*') && pathname.startsWith(route.slice(0, -1)) && pathname.length > route.length - 1)
      return file;
  }
  return 'index.html';
}

const pathnameOf = (url: string) => url.split('?')[0] ?? '/';

/** Paths the SPA may own: not the API, not media, and not something that looks like a file. */
const isSpaPath = (pathname: string) => !/^\/(api|media)(\/|$)/.test(pathname) && !/\.[a-z0-9]+$/i.test(pathname);

/** A browser asking for a page (a GET or HEAD of a path the SPA may own): it is answered with a document. */
export const isPageRequest = (request: { method?: string | undefined; url?: string | undefined }) =>
  (request.method === 'GET' || request.method === 'HEAD') && isSpaPath(pathnameOf(request.url ?? '/'));

/** Whether `path` is valid percent-encoded UTF-8, as the router decodes it. */
function decodes(path: string): boolean {
  try {
    decodeURI(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The URL the router is given (Fastify's rewriteUrl). A page's path that is not valid percent-encoded
 * UTF-8 (`/%ZZ`, `/%c0%ae`: a link a mail client mangled) is taken literally, each `%` standing for
 * itself (`/%25ZZ`), as the browser keeps it: the router refused it before any hook ran, so it got the
 * API's 404 without the page's headers; now it gets what any page path naming nothing gets. Every other
 * URL is routed as sent (an API or media path that does not decode stays the router's 404).
 */
export function routedUrl(request: IncomingMessage): string {
  const url = request.url ?? '/';
  if (!url.includes('%') || !isPageRequest(request)) return url;
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  return decodes(path) ? url : path.replaceAll('%', '%25') + url.slice(path.length);
}

/**
 * The icons browsers, phones and tools ask for by these names whatever a page links (the build draws
 * favicon.ico and apple-touch-icon.png from favicon.svg): kept a week, not for good like the hashed
 * assets, since a new icon comes under the same name.
 */
const ICONS = new Set(['favicon.ico', 'favicon.svg', 'apple-touch-icon.png']);
const ICON_CACHING = 'public, max-age=604800';

/** The build's files no one fetches by name: pages.json and the pages' documents (with their .br and .gz). */
export const BUILD_INTERNAL_FILES = ['pages.json', '*.html', '*.html.br', '*.html.gz'];

/**
 * Serves the built SPA: hashed assets cached for a year, the icons for a week, pages revalidated, and
 * every other GET of one of the app's pages (PAGES) answered with index.html so deep links
 * (/subliminals) work; any other page path gets index.html with 404, where the app shows "Page not
 * found". Pages go through the static sender too, so they are compressed (.br/.gz from the build) and
 * answer 304 by ETag. With them come robots.txt and sitemap.xml for the site at `publicUrl`.
 */
export async function registerWeb(
  app: FastifyInstance,
  pages: WebPages | undefined,
  publicUrl: string,
  dir = WEB_DIST_DIR,
) {
  if (pages) {
    registerCrawlerFiles(app, publicUrl);
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      wildcard: false,
      index: false,
      // Only what a page loads is served by its file name: the documents are sent for their pages
      // (an /index.html or /terms.html would be each page's second URL), and pages.json is the
      // server's own map, which no browser reads. They answer 404 as any unknown path.
      globIgnore: [...BUILD_INTERNAL_FILES],
      // The build writes .br/.gz beside each text asset (vite.config.ts); send those when accepted.
      preCompressed: true,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        // Its .br or .gz when the build wrote one and the browser takes it.
        const icon = ICONS.has(path.relative(dir, filePath).replace(/\.(br|gz)$/, ''));
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : icon ? ICON_CACHING : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (!pages || !isPageRequest(request)) throw notFound();
    const pathname = pathnameOf(request.url);
    const page = pageOf(pathname);
    // No page of the app: the app still says "Page not found", but with a 404 a search engine or a
    // link checker can count (docs/product/screens.md#not-found).
    if (!page) return sendDocument(request, reply, 404, pages.index);
    // One URL per page: `/terms` → `/terms/`, `/login/` → `/login`, the query kept.
    if (page.canonical !== pathname) return reply.redirect(page.canonical + request.url.slice(pathname.length), 301);
    return reply.sendFile(pageFile(pages, pathname));
  });
}

/**
 * A page of the app whose path names something the server can look up cheaply (a program by its slug):
 * sent as registerWeb sends any page, but when `exists` finds nothing of that name, the app's document
 * comes with 404, as for a path that is no page (docs/decisions/044-an-unknown-page-is-a-404-and-each-page-has-one-url.md),
 * and the app shows what it finds. Should the look-up not be made or fail (the server overloaded, the
 * database unreachable), the page is sent as usual. A path in another form (a trailing slash) is left
 * to registerWeb, which redirects it here.
 */
export function registerLookedUpPage<Params extends Record<string, string>>(
  app: FastifyInstance,
  pages: WebPages,
  pattern: string,
  exists: (params: Params) => Promise<boolean>,
) {
  app.get(pattern, { schema: { hide: true } }, async (request, reply) => {
    const pathname = pathnameOf(request.url);
    // The router also gives this route a path of another page (`/programs/`, an empty slug): registerWeb's.
    const page = pageOf(pathname);
    if (page?.pattern !== pattern || page.canonical !== pathname) return reply.callNotFound();
    let found = true;
    if (!request.overloaded) {
      try {
        found = await exists(request.params as Params);
      } catch (error) {
        request.log.warn({ err: error }, 'a page could not look up what it names: sending it as it is');
      }
    }
    if (!found) return sendDocument(request, reply, 404, pages.index);
    return reply.sendFile(pageFile(pages, pathname));
  });
}

/** The share links' document in pages.json (build/pages.ts). */
const SHARE_PAGES = '/s/*';

/**
 * The share page's document filled on the server (docs/decisions/024-the-server-fills-the-share-page.md),
 * by the renderer the web build writes to dist/render/shared.js (from src/web/render-shared.tsx).
 */
export interface SharedPage {
  /** The loading document, in the build directory: sent when the page is to read its link itself. */
  loadingFile: string;
  /** The document for a link's path filled with `served`. */
  fill(served: ServedShared, pathname: string): string;
}

/**
 * Loads the share page's renderer from `renderDir`; undefined (every share link then gets the
 * loading document, as before there was one) when the build made none, or one that does not load or
 * does not fit the document.
 */
export async function loadSharedPage(
  pages: WebPages,
  webDir: string,
  renderDir: string,
  log: FastifyBaseLogger,
): Promise<SharedPage | undefined> {
  const loadingFile = pages.routes[SHARE_PAGES];
  const renderer = path.join(renderDir, 'shared.js');
  if (loadingFile === undefined || !existsSync(renderer)) return undefined;
  try {
    const { sharedPageFiller } = (await import(pathToFileURL(renderer).href)) as {
      sharedPageFiller(template: string): SharedPage['fill'] | undefined;
    };
    const fill = sharedPageFiller(readFileSync(path.join(webDir, loadingFile), 'utf8'));
    if (fill) return { loadingFile, fill };
    log.warn({ renderer, document: loadingFile }, 'the share page renderer does not fit its document: not filling it');
  } catch (error) {
    log.error({ err: error, renderer }, 'the share page renderer does not load: not filling the page');
  }
  return undefined;
}

/** Whether the request's Accept-Encoding names `name` (and not with q=0). */
function acceptsEncoding(request: FastifyRequest, name: string): boolean {
  return String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((entry) => {
      const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
      return coding === name && !params.some((param) => /^q=0(\.0*)?$/.test(param));
    });
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A document made for one request, never stored (`no-store`: a revoked share link stops at once),
 * compressed as the browser accepts: brotli at a quality that takes about a millisecond (a 75 KB
 * page → 13 KB), else gzip, off the event loop.
 */
export async function sendDocument(request: FastifyRequest, reply: FastifyReply, status: number, html: string) {
  const encoding = acceptsEncoding(request, 'br') ? 'br' : acceptsEncoding(request, 'gzip') ? 'gzip' : undefined;
  reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Vary', 'Accept-Encoding');
  if (!encoding) return reply.send(html);
  const body =
    encoding === 'br'
      ? await brotli(html, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html) },
        })
      : await gzipped(html);
  return reply.header('Content-Encoding', encoding).send(body);
}
