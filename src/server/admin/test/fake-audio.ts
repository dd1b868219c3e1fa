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

/** A real 16-bit PCM WAV file: `frames` of a 440 Hz tone at `rate`, in every one of `channels`. */
export function toneWav(frames = 800, rate = 8000, channels = 1): Buffer {
  const dataBytes = frames * channels * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * channels * 2, 28);
  wav.writeUInt16LE(channels * 2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < frames * channels; i++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * Math.floor(i / channels)) / rate)), 44 + i * 2);
  return wav;
}

/** Ogg's page checksum (CRC-32, polynomial 0x04c11db7, not reflected, initial 0). */
export function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** One Ogg page of stream 1 holding `packet` (under 255 bytes), its checksum filled in. */
export function oggPage(packet: Buffer, sequence: number, flags: number): Buffer {
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeUInt32LE(1, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = 1;
  header[27] = packet.length;
  const page = Buffer.concat([header, packet]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** The start of an Ogg Vorbis stream: the identification header on its own page, then the next page. */
export function oggVorbisStart(): Buffer {
  const identification = Buffer.alloc(30);
  identification.write('\x01vorbis', 0, 'latin1');
  identification[11] = 1; // channels
  identification.writeUInt32LE(44_100, 12);
  identification.writeInt32LE(128_000, 20); // nominal bitrate
  identification[28] = 0xb8; // block sizes 256 and 2048
  identification[29] = 1; // framing
  const comment = Buffer.concat([Buffer.from('\x03vorbis', 'latin1'), Buffer.alloc(9), Buffer.from([1])]);
  return Buffer.concat([oggPage(identification, 0, 0x02), oggPage(comment, 1, 0)]);
}

/** The start of a FLAC file: the marker, a STREAMINFO block (44.1 kHz mono, 16 bits) and a frame's sync code. */
export function flacStart(): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0); // min block size
  info.writeUInt16BE(4096, 2); // max block size
  // 20 bits of sample rate, 3 of channels - 1, 5 of bits per sample - 1, then 36 of total samples.
  info.writeUIntBE((44_100 << 4) | (0 << 1) | (15 >> 4), 10, 3);
  info[13] = ((15 & 0x0f) << 4) | 0;
  return Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.from([0x80, 0, 0, 34]), info, Buffer.from([0xff, 0xf8])]);
}

/** What the magic bytes alone made audio: names and contents of uploads that must be refused. */
export const headersOnly: ReadonlyArray<[string, Buffer]> = [
  ['riff.wav', Buffer.from('RIFF\0\0\0\0WAVE', 'latin1')],
  ['header.wav', toneWav().subarray(0, 44)],
  ['zeros.flac', Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(64)])],
  ['zeros.ogg', Buffer.concat([Buffer.from('OggS'), Buffer.alloc(64)])],
];
