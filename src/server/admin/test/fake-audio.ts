import { randomBytes } from 'node:crypto';

/** Bytes that start like an MP3 with an ID3 tag (the server sniffs only the head). */
export const fakeMp3 = (size = 2048) =>
  Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), randomBytes(size)]);
