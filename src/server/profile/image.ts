import { sharpOf } from '../media/sharp';
import { PROFILE_IMAGE } from '@shared/constants';

/** Raster formats we accept; anything else (SVG, PDF, unknown bytes) is refused. */
const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/** Guards against decompression bombs: a 5 MB file may not claim a gigapixel canvas. */
const MAX_INPUT_PIXELS = PROFILE_IMAGE.maxInputPixels;

export class NotAnImageError extends Error {}

/**
 * Decodes the upload to prove it is a raster image (its name and declared type are not trusted),
 * then re-encodes it as JPEG of at most 150 px on the longer side, upright, with no metadata.
 */
export async function normaliseProfileImage(input: Buffer): Promise<Buffer> {
  let format: string | undefined;
  try {
    format = (await (await sharpOf(input, { limitInputPixels: MAX_INPUT_PIXELS })).metadata()).format;
  } catch {
    throw new NotAnImageError('not a decodable image');
  }
  if (!format || !RASTER_FORMATS.has(format)) throw new NotAnImageError(`refused format ${format ?? 'unknown'}`);
  try {
    return await (
      await sharpOf(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
    )
      .rotate()
      .resize(PROFILE_IMAGE.maxSidePx, PROFILE_IMAGE.maxSidePx, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: Math.round(PROFILE_IMAGE.jpegQuality * 100), mozjpeg: true })
      .toBuffer();
  } catch {
    throw new NotAnImageError('image failed to decode');
  }
}
