import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mediaDir } from '../paths';

/** `<folder>/<first 32 hex of sha-256>.<ext>`: the same bytes always get the same name. */
export function contentAddressedName(folder: string, bytes: Uint8Array, extension: string): string {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return `${folder}/${digest}.${extension}`;
}

/** The absolute path of a media file; refuses anything that would leave the media folder. */
export function mediaFilePath(dataDir: string, relativePath: string): string {
  const root = mediaDir(dataDir);
  const full = path.resolve(root, relativePath);
  if (!full.startsWith(root + path.sep)) throw new Error(`media path escapes the media folder: ${relativePath}`);
  return full;
}

export async function fileExists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Writes to a temporary name beside the target and renames it, so no reader sees half a file. */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Stores bytes under their content-addressed name (skipping the write when already there). */
export async function storeMediaFile(dataDir: string, folder: string, bytes: Uint8Array, extension: string): Promise<{ relativePath: string; created: boolean }> {
  const relativePath = contentAddressedName(folder, bytes, extension);
  const file = mediaFilePath(dataDir, relativePath);
  if (await fileExists(file)) return { relativePath, created: false };
  await writeFileAtomic(file, bytes);
  return { relativePath, created: true };
}

export async function removeMediaFile(dataDir: string, relativePath: string): Promise<void> {
  await rm(mediaFilePath(dataDir, relativePath), { force: true });
}
