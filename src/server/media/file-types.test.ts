import { describe, expect, it } from 'vitest';
import { installerExtension, sniffAudio } from './file-types';
import { flacStart, oggPage, oggVorbisStart, toneWav } from '../admin/test/fake-audio';

const bytes = (...parts: Array<string | number[] | Buffer>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const withByte = (buffer: Buffer, offset: number, value: number) => {
  const copy = Buffer.from(buffer);
  copy[offset] = value;
  return copy;
};
const withUInt16LE = (buffer: Buffer, offset: number, value: number) => {
  const copy = Buffer.from(buffer);
  copy.writeUInt16LE(value, offset);
  return copy;
};
const withUInt32LE = (buffer: Buffer, offset: number, value: number) => {
  const copy = Buffer.from(buffer);
  copy.writeUInt32LE(value, offset);
  return copy;
};

const opusHead = bytes('OpusHead', [1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0]);
const opusPage = oggPage(opusHead, 0, 0x02);
/** A Vorbis identification page with other flags than beginning-of-stream alone. */
const withFlags = (flags: number) => {
  const page = oggVorbisStart().subarray(0, 58);
  return oggPage(page.subarray(28), 0, flags);
};
/** A WAV as ffmpeg writes it: fmt, then a LIST/INFO chunk, then the data. */
const wavWithList = (() => {
  const wav = toneWav();
  const list = bytes('LIST', [26, 0, 0, 0], 'INFOISFT', [14, 0, 0, 0], 'Lavf61.7.100', [0, 0]);
  const riff = bytes('RIFF', [0, 0, 0, 0], wav.subarray(8, 36), list, wav.subarray(36));
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
})();

describe('sniffAudio', () => {
  it.each([
    ['MP3 with ID3', bytes('ID3', [4, 0, 0, 0, 0, 0, 2], [0, 0], [0xff, 0xfb, 0x90, 0x64]), '.mp3'],
    ['MP3 frame (MPEG-1 layer III, 128 kbps)', bytes([0xff, 0xfb, 0x90, 0x64]), '.mp3'],
    ['OGG (Vorbis)', oggVorbisStart(), '.ogg'],
    ['OGG (Opus)', Buffer.concat([opusPage, oggPage(Buffer.from('OpusTags'), 1, 0)]), '.ogg'],
    ['WAV (PCM)', toneWav(), '.wav'],
    ['WAV with a LIST chunk before its data', wavWithList, '.wav'],
    [
      'M4A',
      bytes(
        [0, 0, 0, 0x14],
        'ftypM4A ',
        [0, 0, 0, 0],
        'isom',
        [0, 0, 0, 8],
        'free',
        [0, 0, 0, 16],
        'mdat',
        Array(8).fill(0),
      ),
      '.m4a',
    ],
    ['AAC (ADTS)', bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc], Array(9).fill(0x21)), '.aac'],
    ['FLAC', flacStart(), '.flac'],
  ])('recognises %s', (_name, head, ext) => {
    expect(sniffAudio(head)?.ext).toBe(ext);
  });

  const wav = toneWav();
  it.each([
    ['a 12-byte RIFF/WAVE and nothing else', bytes('RIFF', [0, 0, 0, 0], 'WAVE')],
    ['a 44-byte WAV header with no data', wav.subarray(0, 44)],
    ['a WAV header whose data chunk is empty', withUInt32LE(wav.subarray(0, 48), 40, 0)],
    ['a WAV of an unknown format', withUInt16LE(wav, 20, 0x1234)],
    ['a WAV with no channels', withUInt16LE(wav, 22, 0)],
    ['a WAV whose data comes before its fmt chunk', bytes('RIFF', [0, 0, 0, 0], 'WAVE', wav.subarray(36, 60))],
    ['a WAV whose chunk ids are not text', bytes('RIFF', [0, 0, 0, 0], 'WAVE', Array(40).fill(0))],
    ['fLaC and zeros', bytes('fLaC', Array(60).fill(0))],
    ['a FLAC whose first block is not a 34-byte STREAMINFO', withByte(flacStart(), 7, 33)],
    ['a FLAC of STREAMINFO alone', flacStart().subarray(0, 42)],
    ['OggS and zeros', bytes('OggS', Array(60).fill(0))],
    [
      'an Ogg page of another codec',
      Buffer.concat([oggPage(Buffer.from('Speex   '), 0, 2), oggPage(bytes('x'), 1, 0)]),
    ],
    ['an Ogg page with a wrong checksum', withByte(oggVorbisStart(), 22, 0)],
    ['an Ogg first page that does not begin the stream', Buffer.concat([withFlags(0), oggPage(bytes('x'), 1, 0)])],
    ['an Ogg identification page and nothing after it', oggVorbisStart().subarray(0, 58)],
    ['an M4A ftyp box and nothing after it', bytes([0, 0, 0, 0x10], 'ftypM4A ', [0, 0, 0, 0])],
    ['an M4A ftyp box followed by zeros', bytes([0, 0, 0, 0x10], 'ftypM4A ', Array(20).fill(0))],
    ['an ADTS header and nothing more', bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc])],
    [
      'an ADTS header naming a reserved sample rate',
      bytes([0xff, 0xf1, 0x74, 0x80, 0x02, 0x1f, 0xfc], Array(9).fill(0)),
    ],
    [
      'an ADTS frame followed by something else',
      bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc], Array(9).fill(0), 'text'),
    ],
  ])('refuses %s', (_name, head) => {
    expect(sniffAudio(head)).toBeNull();
  });

  it.each([
    ['HTML', bytes('<!doctype html>')],
    ['a RIFF that is not WAVE (AVI)', bytes('RIFF', [0, 0, 0, 0], 'AVI LIST')],
    ['an MP4 video brand', bytes([0, 0, 0, 0x20], 'ftypqt  ')],
    ['a PNG', bytes([0x89], 'PNG\r\n', [0x1a, 0x0a])],
    ['an MPEG frame with the reserved version', bytes([0xff, 0xeb, 0x90, 0x64])],
    ['nothing', Buffer.alloc(0)],
    ['"ID3" and text', bytes('ID3fake-mp3-data-not-real')],
    ['an ID3 tag and nothing after it', bytes('ID3', [4, 0, 0, 0, 0, 0, 2], [0, 0])],
    ['an ID3 tag followed by text', bytes('ID3', [3, 0, 0, 0, 0, 0, 0], 'not audio')],
  ])('refuses %s', (_name, head) => {
    expect(sniffAudio(head)).toBeNull();
  });

  it('trusts a well-formed tag longer than the head it sees only when the file goes on past the tag', () => {
    // A 1 000-byte tag (syncsafe 0x07 0x68): the frame after it lies beyond the 64 bytes read.
    const head = bytes('ID3', [3, 0, 0, 0, 0, 0x07, 0x68], Buffer.alloc(54).toJSON().data);
    expect(sniffAudio(head, 50_000)?.ext).toBe('.mp3');
    expect(sniffAudio(head, 1_010)).toBeNull();
  });
});

describe('installerExtension', () => {
  it('keeps offered extensions in their canonical spelling and refuses the rest', () => {
    expect(installerExtension('Setup.EXE')).toBe('.exe');
    expect(installerExtension('innerwave-x86_64.appimage')).toBe('.AppImage');
    expect(installerExtension('innerwave.deb')).toBe('.deb');
    expect(installerExtension('install.sh')).toBeNull();
    expect(installerExtension('setup.exe.txt')).toBeNull();
    expect(installerExtension('.exe')).toBeNull();
  });
});
