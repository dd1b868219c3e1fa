import { sharpOf } from './sharp';
import { INSTALLER_EXTENSIONS } from '@shared/contract';

// What an uploaded file really is: audio by its magic bytes, covers by decoding them, installers by
// their extension (the only thing a download needs to keep).

export interface AudioType {
  ext: '.mp3' | '.ogg' | '.wav' | '.m4a' | '.aac' | '.flac';
  mime: string;
}

const ascii = (head: Buffer, offset: number, text: string) =>
  head.subarray(offset, offset + text.length).toString('latin1') === text;

/**
 * MP3 (an ID3v2 tag followed by audio, or an MPEG frame), OGG, WAV, M4A (MP4 with an audio brand), AAC
 * (ADTS) or FLAC; otherwise null. `size` is the whole file's: a tag is trusted only when its header is
 * well formed and the file goes on past it, where the frame that follows is checked when `head` holds it
 * ("ID3" and a line of text is not a track).
 */
export function sniffAudio(head: Buffer, size = head.length): AudioType | null {
  if (ascii(head, 0, 'ID3')) {
    const tagEnd = id3TagEnd(head);
    if (tagEnd === null || size <= tagEnd) return null;
    if (head.length < tagEnd + 4) return { ext: '.mp3', mime: 'audio/mpeg' };
    return frameType(head.subarray(tagEnd));
  }
  if (ascii(head, 0, 'OggS')) return { ext: '.ogg', mime: 'audio/ogg' };
  if (ascii(head, 0, 'fLaC')) return { ext: '.flac', mime: 'audio/flac' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { ext: '.wav', mime: 'audio/wav' };
  if (ascii(head, 4, 'ftyp')) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (['M4A ', 'M4B ', 'mp42', 'mp41', 'isom', 'iso2', 'dash'].includes(brand))
      return { ext: '.m4a', mime: 'audio/mp4' };
    return null;
  }
  return frameType(head);
}

/** Where an ID3v2 tag ends (header, body, footer), or null when its header is not one. */
function id3TagEnd(head: Buffer): number | null {
  if (head.length < 10) return null;
  const [major = 0, revision = 0, flags = 0] = head.subarray(3, 6);
  const sizeBytes = [...head.subarray(6, 10)];
  if (major < 2 || major > 4 || revision === 0xff || (flags & 0x0f) !== 0 || sizeBytes.some((b) => b >= 0x80))
    return null;
  const body = sizeBytes.reduce((total, b) => total * 128 + b, 0);
  return 10 + body + (flags & 0x10 ? 10 : 0);
}

/** An AAC (ADTS) or MPEG audio frame header at the start of `head`. */
function frameType(head: Buffer): AudioType | null {
  const [b0, b1, b2] = head;
  if (b0 === 0xff && b1 !== undefined && b2 !== undefined) {
    // ADTS (AAC): sync word 0xFFF, layer bits 00.
    if ((b1 & 0xf6) === 0xf0) return { ext: '.aac', mime: 'audio/aac' };
    // MPEG audio frame: 11 sync bits, a valid version and layer, and a bitrate that is not "bad".
    const version = (b1 >> 3) & 0b11;
    const layer = (b1 >> 1) & 0b11;
    const bitrate = b2 >> 4;
    if ((b1 & 0xe0) === 0xe0 && version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111) {
      return { ext: '.mp3', mime: 'audio/mpeg' };
    }
  }
  return null;
}

export const COVER_SIDE_PX = 512;

export class InvalidImageError extends Error {
  override name = 'InvalidImageError';
}

/** Decodes any image sharp reads and re-encodes it as a 512 × 512 WebP (cropped to the centre). */
export async function coverToWebp(input: string | Buffer): Promise<Buffer> {
  try {
    return await (
      await sharpOf(input, { failOn: 'error', limitInputPixels: 50_000_000 })
    )
      .rotate()
      .resize(COVER_SIDE_PX, COVER_SIDE_PX, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new InvalidImageError(
      'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
    );
  }
}

/** The installer's extension in its canonical spelling, or null when it is not one we offer. */
export function installerExtension(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  return INSTALLER_EXTENSIONS.find((ext) => lower.endsWith(ext.toLowerCase()) && lower.length > ext.length) ?? null;
}
