import { describe, expect, it } from 'vitest';
import { interleavePcm16, readWav, toInt16, wavHeader } from './wav';

const text = (bytes: ArrayBuffer, offset: number) => String.fromCharCode(...new Uint8Array(bytes, offset, 4));

describe('the WAV writer', () => {
  it('writes a 16-bit PCM stereo 44.1 kHz header for the frames it will hold', () => {
    const header = wavHeader(44_100 * 20, 44_100);
    const view = new DataView(header);
    expect(header.byteLength).toBe(44);
    expect([text(header, 0), text(header, 8), text(header, 12), text(header, 36)]).toEqual([
      'RIFF',
      'WAVE',
      'fmt ',
      'data',
    ]);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(2);
    expect(view.getUint32(24, true)).toBe(44_100);
    expect(view.getUint32(28, true)).toBe(44_100 * 4);
    expect(view.getUint16(32, true)).toBe(4);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(44_100 * 20 * 4);
    expect(view.getUint32(4, true)).toBe(36 + 44_100 * 20 * 4);
  });

  it('interleaves channels as 16-bit samples, clipped and rounded', () => {
    expect(toInt16(0)).toBe(0);
    expect(toInt16(1)).toBe(32767);
    expect(toInt16(-1)).toBe(-32767);
    expect(toInt16(2)).toBe(32767);
    expect(toInt16(Number.NaN)).toBe(0);
    expect([
      ...interleavePcm16([
        [0, 0.5, -0.25],
        [1, -1, 0],
      ]),
    ]).toEqual([0, 32767, 16384, -32767, -8192, 0]);
  });

  it('reads back what it writes (first channel), and refuses what is not a 16-bit PCM WAV', () => {
    const samples = interleavePcm16([
      [0, 0.5, -0.5],
      [0, 0, 0],
    ]);
    const file = new Uint8Array(44 + samples.byteLength);
    file.set(new Uint8Array(wavHeader(3, 22_050)), 0);
    file.set(new Uint8Array(samples.buffer), 44);
    const read = readWav(file.buffer);
    expect(read.sampleRate).toBe(22_050);
    expect([...read.samples].map((x) => Math.round(x * 1000) / 1000)).toEqual([0, 0.5, -0.5]);
    expect(() => readWav(new ArrayBuffer(4))).toThrow();
  });
});
