import { describe, expect, it } from 'vitest';
import { installerExtension, sniffAudio } from './file-types';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffAudio', () => {
  it.each([
    ['MP3 with ID3', bytes('ID3', [4, 0, 0, 0, 0, 0, 2], [0, 0], [0xff, 0xfb, 0x90, 0x64]), '.mp3'],
    ['MP3 frame (MPEG-1 layer III, 128 kbps)', bytes([0xff, 0xfb, 0x90, 0x64]), '.mp3'],
    ['OGG', bytes('OggS', [0, 2]), '.ogg'],
    ['WAV', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), '.wav'],
    ['M4A', bytes([0, 0, 0, 0x20], 'ftypM4A ', [0, 0, 0, 0]), '.m4a'],
    ['AAC (ADTS)', bytes([0xff, 0xf1, 0x50, 0x80]), '.aac'],
    ['FLAC', bytes('fLaC', [0, 0, 0, 0x22]), '.flac'],
  ])('recognises %s', (_name, head, ext) => {
    expect(sniffAudio(head)?.ext).toBe(ext);
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
