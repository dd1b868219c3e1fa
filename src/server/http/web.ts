import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
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

/**
 * Serves the built SPA: hashed assets cached for a year, pages revalidated, and every other GET of
 * a page path answered with index.html so deep links (/subliminals) work. Pages go through the
 * static sender too, so they are compressed (.br/.gz from the build) and answer 304 by ETag.
 */
export async function registerWeb(app: FastifyInstance, pages: WebPages | undefined, dir = WEB_DIST_DIR) {
  if (pages) {
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text asset (vite.config.ts); send those when accepted.
      preCompressed: true,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = pathnameOf(request.url);
    if (pages && (request.method === 'GET' || request.method === 'HEAD') && isSpaPath(pathname)) {
      return reply.sendFile(pageFile(pages, pathname));
    }
    throw notFound();
  });
}
