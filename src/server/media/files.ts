import { mediaDir } from '../paths';
import { contentAddressedName, mediaFileSize, mediaPath, placeStaged, removeMediaFile as removeFromMediaRoot, stageBuffer } from '../storage/media-files';

// Media files addressed from the data folder, for code that holds whole files in memory (the seed,
// profile images); streamed uploads use src/server/storage/media-files.ts directly.

/** The absolute path of a media file; refuses anything that would leave the media folder. */
export const mediaFilePath = (dataDir: string, relativePath: string) => mediaPath(mediaDir(dataDir), relativePath);

export const mediaFileExists = async (dataDir: string, relativePath: string) =>
  (await mediaFileSize(mediaDir(dataDir), relativePath)) !== null;

/** Stores bytes under `<folder>/<sha-256>.<ext>`, atomically; the same bytes are written once. */
export async function storeMediaFile(
  dataDir: string,
  folder: string,
  bytes: Uint8Array,
  extension: string,
): Promise<{ relativePath: string; created: boolean }> {
  const root = mediaDir(dataDir);
  const staged = await stageBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), root);
  const relativePath = `${folder}/${contentAddressedName(staged.sha256, `.${extension}`)}`;
  const { created } = await placeStaged(staged, root, relativePath);
  return { relativePath, created };
}

export const removeMediaFile = (dataDir: string, relativePath: string) => removeFromMediaRoot(mediaDir(dataDir), relativePath);
