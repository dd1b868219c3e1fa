import { describe, expect, it } from 'vitest';
import { mixToMono, monoWav, trimSilence } from './voice-take';
import { readWav } from './wav';

const RATE = 1000;
/** `seconds` of silence (or of the room's hum at `level`), then words, then silence again. */
function take(before: number, words: number, after: number, level = 0) {
  const samples = new Float32Array((before + words + after) * RATE).fill(level);
  for (let n = before * RATE; n < (before + words) * RATE; n++) samples[n] = 0.5 * Math.sin(n / 3);
  return samples;
}

describe('a take of one’s own voice', () => {
  it('averages the channels into one', () => {
    const mono = mixToMono([new Float32Array([1, 0.5, -1]), new Float32Array([0, 0.5, 1, 9])]);
    expect([...mono]).toEqual([0.5, 0.5, 0]);
  });

  it('cuts the silence before and after the words, keeping 150 ms around them', () => {
    const trimmed = trimSilence(take(2, 1, 3), RATE);
    expect(trimmed.length).toBe(1000 + 2 * 150);
    // The room's faint hum (−50 dB) counts as silence; a word's quiet tail (−40 dB) does not.
    expect(trimSilence(take(1, 1, 1, 0.003), RATE).length).toBe(1300);
    const tail = take(1, 1, 1);
    tail[2500] = 0.01;
    expect(trimSilence(tail, RATE).length).toBe(150 + 1501 + 150);
  });

  it('keeps nothing of a take where nothing was heard, and all of one with no silence', () => {
    expect(trimSilence(take(3, 0, 0, 0.001), RATE).length).toBe(0);
    expect(trimSilence(take(0, 2, 0), RATE).length).toBe(2000);
  });

  it('is kept as a one-channel 16-bit WAV file that reads back as it was', async () => {
    const samples = new Float32Array([0, 0.25, -0.5, 0.75]);
    const wav = monoWav(samples, 22_050);
    expect(wav.type).toBe('audio/wav');
    expect(wav.size).toBe(44 + samples.length * 2);
    const read = readWav(await wav.arrayBuffer());
    expect(read.sampleRate).toBe(22_050);
    expect([...read.samples].map((s) => Math.round(s * 100) / 100)).toEqual([0, 0.25, -0.5, 0.75]);
  });
});
