import { randomBytes } from 'node:crypto';

/**
 * Bytes that start like an MP3: an empty ID3 tag, then an MPEG-1 layer III frame header (the server
 * sniffs only the head), then noise.
 */
export const fakeMp3 = (size = 2048) =>
  Buffer.concat([
    Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'),
    Buffer.from([0xff, 0xfb, 0x90, 0x64]),
    randomBytes(size),
  ]);
