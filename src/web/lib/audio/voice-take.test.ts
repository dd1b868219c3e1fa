import { describe, expect, it } from 'vitest';
import {
  levelTake,
  MAX_LEVEL_GAIN_DB,
  mixToMono,
  monoWav,
  PEAK_CEILING_DB,
  SPEECH_LEVEL_DB,
  speechLevel,
  trimSilence,
} from './voice-take';
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

  describe('levelled', () => {
    const SPEECH_RATE = 22_050;
    const dB = (level: number) => 20 * Math.log10(level);
    const peakOf = (samples: Float32Array) => samples.reduce((peak, sample) => Math.max(peak, Math.abs(sample)), 0);
    /**
     * Three words of syllables (a 150 Hz voice with harmonics, each syllable swelling and fading, at
     * uneven strengths) scaled by `scale`, with `pause` seconds of the room at `room` between words.
     */
    function speech(scale: number, { pause = 0.3, room = 0 } = {}) {
      const parts: number[] = [];
      const silence = (seconds: number, level: number) => {
        for (let n = 0; n < seconds * SPEECH_RATE; n++) parts.push(level * Math.sin(n * 0.7));
      };
      for (const word of [
        [1, 0.6],
        [0.8, 0.4, 0.9],
        [0.5, 1],
      ]) {
        for (const strength of word) {
          const frames = 0.15 * SPEECH_RATE;
          for (let n = 0; n < frames; n++) {
            const t = n / SPEECH_RATE;
            const voice =
              Math.sin(2 * Math.PI * 150 * t) +
              0.5 * Math.sin(2 * Math.PI * 300 * t) +
              0.25 * Math.sin(2 * Math.PI * 450 * t);
            parts.push(scale * strength * Math.sin((Math.PI * n) / frames) ** 2 * voice);
          }
          silence(0.05, room);
        }
        silence(pause, room);
      }
      return new Float32Array(parts);
    }

    it('measures the speech, not the pauses between the words', () => {
      const words = speechLevel(speech(0.3), SPEECH_RATE);
      expect(dB(words)).toBeGreaterThan(-20);
      // Three seconds of a room louder than −45 dBFS (−42 dB) between the words leave it where it was.
      expect(dB(speechLevel(speech(0.3, { pause: 3, room: 0.011 }), SPEECH_RATE))).toBeCloseTo(dB(words), 1);
      expect(speechLevel(new Float32Array(22_050), SPEECH_RATE)).toBe(0);
    });

    it('brings a quiet take and a loud one to the same speech level', () => {
      const quiet = speech(0.03, { pause: 1.5, room: 0.002 });
      const loud = speech(0.7, { pause: 0.2 });
      expect(dB(speechLevel(loud, SPEECH_RATE)) - dB(speechLevel(quiet, SPEECH_RATE))).toBeGreaterThan(25);
      for (const take of [quiet, loud]) {
        const levelled = levelTake(take, SPEECH_RATE);
        expect(levelled.length).toBe(take.length);
        expect(Math.abs(dB(speechLevel(levelled, SPEECH_RATE)) - SPEECH_LEVEL_DB)).toBeLessThan(0.05);
      }
    });

    it('is lowered rather than clipped when a loud click would pass the ceiling', () => {
      const take = speech(0.05);
      take[10_000] = 0.6;
      const levelled = levelTake(take, SPEECH_RATE);
      expect(peakOf(levelled)).toBeLessThanOrEqual(10 ** (PEAK_CEILING_DB / 20) + 1e-6);
      expect(peakOf(levelled)).toBeCloseTo(10 ** (PEAK_CEILING_DB / 20), 5);
      // One gain for the whole take: the click keeps its shape, and the speech ends under the level.
      const gain = levelled[10_000]! / take[10_000]!;
      for (const n of [3_000, 9_999, 10_001, 20_000]) expect(levelled[n]).toBeCloseTo(take[n]! * gain, 6);
      expect(dB(speechLevel(levelled, SPEECH_RATE))).toBeLessThan(SPEECH_LEVEL_DB - 1);
    });

    it('is raised by 20 dB at most, so the room of a near-silent take is not blown up', () => {
      // Speech faintly over the room: about −42 dBFS, 22 dB under the level.
      const faint = speech(0.012, { room: 0.0005 });
      expect(dB(speechLevel(faint, SPEECH_RATE))).toBeLessThan(SPEECH_LEVEL_DB - MAX_LEVEL_GAIN_DB);
      const levelled = levelTake(faint, SPEECH_RATE);
      const cap = 10 ** (MAX_LEVEL_GAIN_DB / 20);
      for (const n of [100, 2_000, 5_000]) expect(levelled[n]).toBeCloseTo(faint[n]! * cap, 6);
      expect(peakOf(levelled)).toBeCloseTo(peakOf(faint) * cap, 5);
    });

    it('leaves silence, and a room with no voice in it, as they were', () => {
      expect([...levelTake(new Float32Array(2_000), SPEECH_RATE)]).toEqual(new Array(2_000).fill(0));
      expect(levelTake(new Float32Array(0), SPEECH_RATE).length).toBe(0);
      const room = take(3, 0, 0, 0.004);
      expect([...levelTake(room, RATE)]).toEqual([...room]);
    });
  });
});
