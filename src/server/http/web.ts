import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFound } from './errors';
import { WEB_DIST_DIR } from '../paths';

/**
 * The built pages: the SPA's index.html (every route) and, when built, home.html, the pre-rendered
 * home page with its own lean entry, sent for `/` (see vite.config.ts).
 */
export interface WebPages {
  index: string;
  home: string | undefined;
}

export function readWebPages(dir = WEB_DIST_DIR): WebPages | undefined {
  const read = (name: string) => {
    const file = path.join(dir, name);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
  const index = read('index.html');
  return index === undefined ? undefined : { index, home: read('home.html') };
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
      return reply.sendFile(pathname === '/' && pages.home ? 'home.html' : 'index.html');
    }
    throw notFound();
  });
}
