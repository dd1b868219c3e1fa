import { expect } from 'vitest';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches the signed URL the API hands out for a media file under the test app's public URL. */
export function signedMediaUrl(relativePath: string, downloadName?: string) {
  const download = downloadName ? `&download=${escape(encodeURIComponent(downloadName))}` : '';
  return expect.stringMatching(
    new RegExp(
      `^${escape(`http://innerwave.test/media/${relativePath}`)}\\?expires=\\d+${download}&signature=[\\w-]+$`,
    ),
  );
}
