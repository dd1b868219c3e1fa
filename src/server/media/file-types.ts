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
 * (ADTS) or FLAC; otherwise null. `size` is the whole file's. A container is trusted only when its
 * header is well formed within `head` and the file goes on past it: a tag or header alone, or magic
 * bytes and zeros, is not a track.
 */
export function sniffAudio(head: Buffer, size = head.length): AudioType | null {
  if (ascii(head, 0, 'ID3')) {
    const tagEnd = id3TagEnd(head);
    if (tagEnd === null || size <= tagEnd) return null;
    if (head.length < tagEnd + 4) return { ext: '.mp3', mime: 'audio/mpeg' };
    return frameType(head.subarray(tagEnd), size - tagEnd);
  }
  if (ascii(head, 0, 'OggS')) return isOgg(head, size) ? { ext: '.ogg', mime: 'audio/ogg' } : null;
  if (ascii(head, 0, 'fLaC')) return isFlac(head, size) ? { ext: '.flac', mime: 'audio/flac' } : null;
  if (ascii(head, 0, 'RIFF')) return isWav(head, size) ? { ext: '.wav', mime: 'audio/wav' } : null;
  if (ascii(head, 4, 'ftyp')) return isM4a(head, size) ? { ext: '.m4a', mime: 'audio/mp4' } : null;
  return frameType(head, size);
}

/** A chunk or box type: four printable ASCII characters. */
const isFourCc = (bytes: Buffer) => bytes.length === 4 && [...bytes].every((b) => b >= 0x20 && b <= 0x7e);

/** WAVE format tags a player reads: PCM, ADPCM, IEEE float, A-law, µ-law, IMA ADPCM, GSM, MP3, extensible. */
const WAVE_FORMATS = new Set([0x0001, 0x0002, 0x0003, 0x0006, 0x0007, 0x0011, 0x0031, 0x0055, 0xfffe]);

interface WavLayout {
  format: {
    tag: number;
    channels: number;
    rate: number;
    byteRate: number;
    blockAlign: number;
    bitsPerSample: number;
  } | null;
  /** The `data` chunk, when its header lies within `head`: where its bytes start, and how many it declares. */
  data: { offset: number; length: number } | null;
  /** Where the walk stopped without meeting `data`: the next chunk's header, which `head` does not hold. */
  next: number;
}

/** RIFF/WAVE's chunks from byte 12, as far as `head` reaches; null when one is malformed. */
function walkWav(head: Buffer): WavLayout | null {
  if (head.length < 12 || !ascii(head, 8, 'WAVE')) return null;
  let offset = 12;
  let format: WavLayout['format'] = null;
  while (offset + 8 <= head.length) {
    const id = head.subarray(offset, offset + 4);
    const length = head.readUInt32LE(offset + 4);
    if (!isFourCc(id)) return null;
    if (ascii(head, offset, 'fmt ')) {
      if (length < 16 || offset + 24 > head.length) return null;
      format = {
        tag: head.readUInt16LE(offset + 8),
        channels: head.readUInt16LE(offset + 10),
        rate: head.readUInt32LE(offset + 12),
        byteRate: head.readUInt32LE(offset + 16),
        blockAlign: head.readUInt16LE(offset + 20),
        bitsPerSample: head.readUInt16LE(offset + 22),
      };
      if (!WAVE_FORMATS.has(format.tag) || format.channels === 0 || format.rate === 0 || format.blockAlign === 0)
        return null;
    } else if (ascii(head, offset, 'data')) {
      return { format, data: { offset: offset + 8, length }, next: offset };
    }
    offset += 8 + length + (length & 1);
  }
  return { format, data: null, next: offset };
}

/**
 * RIFF/WAVE: a `fmt ` chunk (a known format, channels, a sample rate and a block size) before a
 * non-empty `data` chunk that the file goes on into. Chunks past `head` are not read: there, a valid
 * `fmt ` and a file that goes on past the next chunk's header suffice.
 */
function isWav(head: Buffer, size: number): boolean {
  const wav = walkWav(head);
  if (!wav?.format) return false;
  return wav.data ? wav.data.length > 0 && size > wav.data.offset : size > wav.next + 8;
}

/**
 * A plain PCM WAV file whose `data` chunk starts within `head` and is whole in a file of `size` bytes,
 * its header's fields agreeing with each other (a frame is the channels' samples, a second is `rate`
 * frames): its channels, rate, bits and frames; otherwise null (a recording of one's voice must be one).
 */
export function pcmWav(head: Buffer, size: number) {
  if (!ascii(head, 0, 'RIFF')) return null;
  const wav = walkWav(head);
  if (!wav?.format || !wav.data || wav.format.tag !== 0x0001) return null;
  const { channels, rate, byteRate, blockAlign, bitsPerSample } = wav.format;
  if (blockAlign !== (channels * bitsPerSample) / 8 || byteRate !== rate * blockAlign) return null;
  if (wav.data.offset + wav.data.length > size) return null;
  return { channels, rate, bitsPerSample, frames: Math.floor(wav.data.length / blockAlign) };
}

/** FLAC: the first metadata block is a STREAMINFO of 34 bytes with a sample rate and channels, and more follows. */
function isFlac(head: Buffer, size: number): boolean {
  if (head.length < 42 || size <= 42) return false;
  const type = head[4]! & 0x7f;
  const length = head.readUIntBE(5, 3);
  if (type !== 0 || length !== 34) return false;
  const minBlock = head.readUInt16BE(8);
  const maxBlock = head.readUInt16BE(10);
  const rate = head.readUIntBE(18, 3) >> 4;
  return minBlock >= 16 && maxBlock >= minBlock && rate > 0 && rate <= 655_350;
}

/** CRC-32 of Ogg pages (polynomial 0x04c11db7, not reflected, initial 0), the checksum field as zero. */
function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const [i, byte] of page.entries()) {
    crc ^= (i >= 22 && i < 26 ? 0 : byte) << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** The identification packets of the codecs an Ogg file may carry here. */
const OGG_CODECS = [Buffer.from('\x01vorbis', 'latin1'), Buffer.from('OpusHead'), Buffer.from('\x7fFLAC', 'latin1')];

/**
 * Ogg: the first page is a well-formed beginning-of-stream page (version 0, sequence 0, its segment
 * table within `head`) whose packet names Vorbis, Opus or FLAC, its checksum right when the page is within
 * `head`, and the file goes on past it.
 */
function isOgg(head: Buffer, size: number): boolean {
  if (head.length < 28) return false;
  const version = head[4];
  const flags = head[5]!;
  const segments = head[26]!;
  if (version !== 0 || flags !== 0x02 || head.readUInt32LE(18) !== 0 || segments === 0) return false;
  const bodyStart = 27 + segments;
  if (head.length < bodyStart) return false;
  const bodyLength = [...head.subarray(27, bodyStart)].reduce((total, b) => total + b, 0);
  const pageEnd = bodyStart + bodyLength;
  if (size <= pageEnd) return false;
  if (!OGG_CODECS.some((id) => head.subarray(bodyStart, bodyStart + id.length).equals(id))) return false;
  return pageEnd > head.length || oggCrc(head.subarray(0, pageEnd)) === head.readUInt32LE(22);
}

/** The brands of MP4 files that hold audio. */
const M4A_BRANDS = ['M4A ', 'M4B ', 'mp42', 'mp41', 'isom', 'iso2', 'dash'];

/** M4A: an `ftyp` box of an audio brand, whole (a multiple of 4 bytes, within `head`), then another box. */
function isM4a(head: Buffer, size: number): boolean {
  if (head.length < 16) return false;
  const length = head.readUInt32BE(0);
  if (length < 16 || (length - 16) % 4 !== 0 || length + 8 > head.length || size <= length + 8) return false;
  if (!M4A_BRANDS.includes(head.subarray(8, 12).toString('latin1'))) return false;
  const next = head.readUInt32BE(length);
  return isFourCc(head.subarray(length + 4, length + 8)) && (next === 0 || next === 1 || next >= 8);
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

/**
 * An AAC (ADTS) or MPEG audio frame header at the start of `head` (of a file of `size` bytes from
 * there). An ADTS header must name a sample rate, hold a whole frame longer than itself, and be
 * followed by another frame when `head` shows what follows.
 */
function frameType(head: Buffer, size: number): AudioType | null {
  const [b0, b1, b2] = head;
  if (b0 === 0xff && b1 !== undefined && b2 !== undefined) {
    // ADTS (AAC): sync word 0xFFF, layer bits 00.
    if ((b1 & 0xf6) === 0xf0) return isAdts(head, size) ? { ext: '.aac', mime: 'audio/aac' } : null;
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

function isAdts(head: Buffer, size: number): boolean {
  if (head.length < 7) return false;
  const headerLength = head[1]! & 0x01 ? 7 : 9;
  const rateIndex = (head[2]! >> 2) & 0x0f;
  const frameLength = ((head[3]! & 0x03) << 11) | (head[4]! << 3) | (head[5]! >> 5);
  if (rateIndex > 12 || frameLength <= headerLength || size < frameLength) return false;
  if (size === frameLength || head.length < frameLength + 2) return true;
  return head[frameLength] === 0xff && (head[frameLength + 1]! & 0xf6) === 0xf0;
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
