import path from 'node:path';
import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { MEDIA_PREFIX } from '@shared/contract';
import type { AppContext } from '../context';
import { forbidden, notFound, unauthorized } from '../http/errors';
import { mediaDir } from '../paths';
import { contentDisposition } from './urls';

/**
 * Media paths we ever create: segments of letters, digits, '.', '_' and '-', none starting with a
 * dot. Checked on the raw URL, so no encoding of '..', '/', '\' or NUL (single, double, mixed)
 * gets past it to the file system.
 */
const SAFE_MEDIA_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Names we write ourselves: a sha-256 content hash, so their bytes never change. */
const CONTENT_ADDRESSED = /(?:^|[/-])[0-9a-f]{64}\.[a-z0-9]+$/;
const INSTALLER = /\.(exe|msi|dmg|pkg|zip|appimage|deb|rpm)$/i;

export const MEDIA_LINK_INVALID = 'This media link is not valid or has expired.';

/** What a media response may do in a browser that opens it: nothing (no script, no plugin, no frame). */
const MEDIA_CSP = "sandbox; default-src 'none'";

/** Seconds until a verified media link expires (its `expires`, Unix seconds). */
function linkSecondsLeft(rawUrl: string | undefined): number {
  const expires = Number(new URLSearchParams((rawUrl ?? '').split('?')[1]).get('expires'));
  return Math.max(0, Math.floor(expires - Date.now() / 1000));
}

/** One byte-range-spec of RFC 9110 §14.1.1, digits only: `first-`, `first-last` or `-suffix`. */
const BYTE_RANGE_SPEC = /^(?:(\d+)-(\d*)|-\d+)$/;

/**
 * Whether a Range header is a valid `bytes=` ranges-specifier (RFC 9110 §14.1.1). One that is not is ignored
 * and the whole file served (§14.2), where the parser below would read `1e3`, `+5` or `0x10` as a number.
 */
export function isValidBytesRange(header: string): boolean {
  const [unit, set] = header.split(/=(.*)/s, 2);
  if (unit?.toLowerCase() !== 'bytes' || !set) return false;
  return set.split(/[ \t]*,[ \t]*/).every((spec) => {
    const match = BYTE_RANGE_SPEC.exec(spec);
    return match !== null && (!match[2] || BigInt(match[1]!) <= BigInt(match[2]));
  });
}

export function isSafeMediaPath(rawUrl: string): boolean {
  const pathname = rawUrl.split('?')[0] ?? '';
  if (!pathname.startsWith(MEDIA_PREFIX)) return false;
  return SAFE_MEDIA_PATH.test(pathname.slice(MEDIA_PREFIX.length));
}

/**
 * Serves DATA_DIR/media at /media/ to holders of a signed URL (see urls.ts): byte ranges, ETag/304,
 * content types; never a listing; sandboxed, so an uploaded file can never run as a page of ours.
 */
export const mediaRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  // With S3-compatible storage the URLs handed out are the storage's own: nothing is served here.
  if (ctx.mediaFiles.kind !== 'local') return;
  const root = mediaDir(ctx.config.dataDir);
  mkdirSync(root, { recursive: true });
  const downloads = new WeakMap<FastifyRequest, string>();

  app.addHook('onRequest', async (request, reply) => {
    // A signed link found elsewhere (a shared page's cover, say) is someone's file, never a search result.
    reply
      .header('Content-Security-Policy', MEDIA_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Robots-Tag', 'noindex');
    const [pathname = '', query = ''] = (request.raw.url ?? '').split(/\?(.*)/s, 2);
    if (!isSafeMediaPath(pathname)) throw notFound();
    const access = ctx.media.verify(pathname, new URLSearchParams(query));
    if (!access.ok) throw access.reason === 'unsigned' ? unauthorized() : forbidden(MEDIA_LINK_INVALID);
    if (access.downloadName) downloads.set(request, access.downloadName);
    const range = request.headers.range;
    if (range !== undefined && !isValidBytesRange(range)) delete request.raw.headers.range;
  });
  app.addHook('onSend', async (request, reply) => {
    const name = downloads.get(request);
    if (name && reply.statusCode < 300)
      reply.header('Content-Type', 'application/octet-stream').header('Content-Disposition', contentDisposition(name));
  });

  // send's 416 carries `Content-Range: bytes */size`, which the app's error handler would drop.
  app.setErrorHandler((error: Error & { status?: number; headers?: Record<string, string> }, _request, reply) => {
    if (error.status !== 416) throw error;
    return reply
      .code(416)
      .headers(error.headers ?? {})
      .send({ detail: 'Requested range not satisfiable.' });
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
      // Private media (decisions §11): a browser keeps a file for as long as its link works; a shared
      // cache (a proxy, a CDN) never keeps it, so nobody is served it there once the link has expired.
      res.header(
        'Cache-Control',
        CONTENT_ADDRESSED.test(name)
          ? `private, max-age=${linkSecondsLeft(res.request.raw.url)}, immutable`
          : 'private, max-age=0, must-revalidate',
      );
      // An installer is downloaded, never shown, even by a URL signed without a name.
      if (INSTALLER.test(name)) {
        res.header('Content-Type', 'application/octet-stream');
        res.header('Content-Disposition', contentDisposition(name));
      }
    },
  });
};
