import { PROFILE_IMAGE } from '@shared/constants';

/** Scales (w, h) down so the longer side is at most `max`; never up. */
export function fitWithin(
  width: number,
  height: number,
  max: number = PROFILE_IMAGE.maxSidePx,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A picture's size as its header gives it, without decoding its pixels (an image never drawn is not
 * decoded); rejects when the browser cannot read the file as a picture.
 */
export function imageSize(file: File): Promise<{ width: number; height: number }> {
  const url = URL.createObjectURL(file);
  const image = new Image();
  return new Promise<{ width: number; height: number }>((resolve, reject) => {
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => reject(new Error('not a readable picture'));
    image.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}

/** Resizes an image file in the browser to at most 150 px on the longer side, JPEG quality 0.8. */
export async function resizeProfileImage(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = fitWithin(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    // JPEG has no transparency: paint white under it rather than black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('could not encode the image'))),
        'image/jpeg',
        PROFILE_IMAGE.jpegQuality,
      ),
    );
  } finally {
    bitmap.close();
  }
}
