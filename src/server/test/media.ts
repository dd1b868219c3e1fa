import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
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

/** Every file under the media folder of `dataDir`, relative to it (the staging folder `.incoming` included). */
export function mediaFilesIn(dataDir: string): string[] {
  const root = path.join(dataDir, 'media');
  if (!existsSync(root)) return [];
  return (
    readdirSync(root, { recursive: true, withFileTypes: true }) as Array<{
      isFile(): boolean;
      parentPath: string;
      name: string;
    }>
  )
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}
