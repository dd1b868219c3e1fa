import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@shared/contract';
import { WEB_DIST_DIR } from '../paths';

export function readIndexHtml(dir = WEB_DIST_DIR): string | undefined {
  const file = path.join(dir, 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Paths the SPA may own: not the API, not media, and not something that looks like a file. */
const isSpaPath = (url: string) => {
  const pathname = url.split('?')[0] ?? '/';
  return !/^\/(api|media)(\/|$)/.test(pathname) && !/\.[a-z0-9]+$/i.test(pathname);
};

/**
 * Serves the built SPA: hashed assets cached for a year, index.html revalidated, and every other
 * GET of a page path answered with index.html so deep links (/subliminals) work.
 */
export async function registerWeb(app: FastifyInstance, indexHtml: string | undefined, dir = WEB_DIST_DIR) {
  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text asset (vite.config.ts); send those when accepted.
      preCompressed: true,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (indexHtml && (request.method === 'GET' || request.method === 'HEAD') && isSpaPath(request.url)) {
      return reply.code(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexHtml);
    }
    return reply.code(404).send({ detail: MESSAGES.notFound });
  });
}
