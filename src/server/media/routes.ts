import path from 'node:path';
import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { MEDIA_PREFIX } from '@shared/contract';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { mediaDir } from '../paths';

/**
 * Media paths we ever create: segments of letters, digits, '.', '_' and '-', none starting with a
 * dot. Checked on the raw URL, so no encoding of '..', '/', '\' or NUL (single, double, mixed)
 * gets past it to the file system.
 */
const SAFE_MEDIA_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Names we write ourselves: a sha-256 content hash, so their bytes never change. */
const CONTENT_ADDRESSED = /(?:^|[/-])[0-9a-f]{64}\.[a-z0-9]+$/;
const INSTALLER = /\.(exe|msi|dmg|pkg|zip|appimage|deb|rpm)$/i;

export function isSafeMediaPath(rawUrl: string): boolean {
  const pathname = rawUrl.split('?')[0] ?? '';
  if (!pathname.startsWith(MEDIA_PREFIX)) return false;
  return SAFE_MEDIA_PATH.test(pathname.slice(MEDIA_PREFIX.length));
}

/** Serves DATA_DIR/media at /media/: byte ranges, ETag/304, content types; never a listing. */
export const mediaRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const root = mediaDir(ctx.config.dataDir);
  mkdirSync(root, { recursive: true });

  app.addHook('onRequest', async (request) => {
    if (!isSafeMediaPath(request.raw.url ?? '')) throw notFound();
  });

  // send's 416 carries `Content-Range: bytes */size`, which the app's error handler would drop.
  app.setErrorHandler((error: Error & { status?: number; headers?: Record<string, string> }, _request, reply) => {
    if (error.status !== 416) throw error;
    return reply.code(416).headers(error.headers ?? {}).send({ detail: 'Requested range not satisfiable.' });
  });

  await app.register(fastifyStatic, {
    root,
    prefix: MEDIA_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    redirect: false,
    dotfiles: 'deny',
    acceptRanges: true,
    etag: true,
    lastModified: true,
    setHeaders(res, filePath) {
      const name = path.basename(filePath);
      res.header(
        'Cache-Control',
        CONTENT_ADDRESSED.test(name) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      );
      if (INSTALLER.test(name)) {
        res.header('Content-Type', 'application/octet-stream');
        res.header('Content-Disposition', `attachment; filename="${name}"`);
      }
    },
  });
};
