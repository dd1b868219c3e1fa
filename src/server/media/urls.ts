import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_LINK_MIN_LIFETIME_SECONDS, MEDIA_PREFIX } from '@shared/contract';
import { deriveKey } from '../auth/tokens';

/**
 * Media files are private: the API hands out URLs signed for a while, so `<audio src>`, `<img>` and
 * downloads work without an Authorization header, and a URL found later (a log, a shared screenshot,
 * browser history) stops working. Expiry is rounded up to a window, so the URL of a file stays the same
 * within the window (browsers cache it, responses holding it stay cacheable), and every URL is valid for
 * at least MIN_LIFETIME: long enough for a sleep session to keep seeking in its audio.
 */
const WINDOW_SECONDS = 6 * 60 * 60;
const MIN_LIFETIME_SECONDS = MEDIA_LINK_MIN_LIFETIME_SECONDS;

/** Characters kept in a download's file name; everything else becomes '-'. */
const unsafeNameCharacters = /[^A-Za-z0-9._-]+/g;

export interface MediaUrlOptions {
  /** A download with this file name (Content-Disposition: attachment), signed with the URL. */
  downloadName?: string;
}

export type MediaAccess =
  { ok: true; downloadName: string | undefined } | { ok: false; reason: 'unsigned' | 'invalid' | 'expired' };

export interface MediaUrls {
  /** The absolute, signed URL of a stored file, by its relative path (the app's, or the storage's own). */
  url(relativePath: string, options?: MediaUrlOptions): Promise<string>;
  /** Checks the signature of a request for `pathname` (as requested, still percent-encoded) with its query. */
  verify(pathname: string, query: URLSearchParams, now?: Date): MediaAccess;
}

/** Nothing under the app's /media/ is handed out while the storage (S3) serves the files itself. */
export const mediaNotServedByApp = (): MediaAccess => ({ ok: false, reason: 'invalid' });

export const safeDownloadName = (name: string) =>
  name
    .replace(unsafeNameCharacters, '-')
    .replace(/^[-.]+/, '')
    .slice(0, 120) || 'download';

/** `attachment` with the name as typed (ASCII, already made safe when the URL was signed). */
export const contentDisposition = (name: string) =>
  `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * When a link made at `now` expires (Unix seconds): the end of a window, at least MIN_LIFETIME away;
 * and the start of the current window, which a signature that must carry its own time can use.
 */
export function linkWindow(now: Date): { signedAt: number; expires: number } {
  const seconds = Math.floor(now.getTime() / 1000);
  return {
    signedAt: Math.floor(seconds / WINDOW_SECONDS) * WINDOW_SECONDS,
    expires: Math.ceil((seconds + MIN_LIFETIME_SECONDS) / WINDOW_SECONDS) * WINDOW_SECONDS,
  };
}

export function createMediaUrls(secretKey: string, publicUrl: string, clock: () => Date = () => new Date()): MediaUrls {
  const key = deriveKey(secretKey, 'media');
  const sign = (pathname: string, expires: number, downloadName: string) =>
    createHmac('sha256', key).update(`${pathname}\n${expires}\n${downloadName}`).digest('base64url');

  return {
    url(relativePath, options = {}) {
      const pathname = `${MEDIA_PREFIX}${relativePath.split('/').map(encodeURIComponent).join('/')}`;
      const { expires } = linkWindow(clock());
      const downloadName = options.downloadName ? safeDownloadName(options.downloadName) : '';
      const query = new URLSearchParams({
        expires: String(expires),
        ...(downloadName && { download: downloadName }),
        signature: sign(pathname, expires, downloadName),
      });
      return Promise.resolve(`${publicUrl}${pathname}?${query.toString()}`);
    },
    verify(pathname, query, now = clock()) {
      const expires = query.get('expires');
      const signature = query.get('signature');
      if (!expires || !signature) return { ok: false, reason: 'unsigned' };
      const downloadName = query.get('download') ?? '';
      const expected = Buffer.from(sign(pathname, Number(expires), downloadName));
      const given = Buffer.from(signature);
      if (!/^\d{1,12}$/.test(expires) || given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: 'invalid' };
      if (Number(expires) * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, downloadName: downloadName || undefined };
    },
  };
}

/** The name an installer downloads under: the product, its version and the installer's own extension. */
export const installerDownloadName = (version: string, relativePath: string) =>
  `Innerwave-${version}${/\.[A-Za-z0-9]+$/.exec(relativePath)?.[0] ?? ''}`;
