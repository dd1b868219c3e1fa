import { describe, it, expect } from 'vitest';
import {
  SAMPLE_RATE,
  applyFades,
  brownNoise,
  dbfsToGain,
  encodeMp3,
  layeredTone,
  mix,
  normalizePeak,
  peakOf,
  pinkNoise,
  sineTone,
  toInt16,
  whiteNoise,
  wholeCycleSeconds,
} from './audio';
import { SEED_TRACKS, TRACK_SECONDS } from './catalog';

/** Power of one frequency (Goertzel), normalised by length. */
function powerAt(samples: Float32Array, freqHz: number, sampleRate = SAMPLE_RATE): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * freqHz) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return (previous ** 2 + beforePrevious ** 2 - coefficient * previous * beforePrevious) / samples.length ** 2;
}

function bandPower(samples: Float32Array, fromHz: number, toHz: number): number {
  let total = 0;
  let bins = 0;
  for (let freq = fromHz; freq <= toHz; freq += 4) {
    total += powerAt(samples, freq);
    bins++;
  }
  return total / bins;
}

function dominantFrequency(samples: Float32Array, fromHz: number, toHz: number): number {
  let best = fromHz;
  let bestPower = -1;
  for (let freq = fromHz; freq <= toHz; freq++) {
    const power = powerAt(samples, freq);
    if (power > bestPower) [best, bestPower] = [freq, power];
  }
  return best;
}

function zeroCrossings(samples: Float32Array): number {
  let count = 0;
  for (let i = 1; i < samples.length; i++) {
    if (Math.sign(samples[i] ?? 0) !== Math.sign(samples[i - 1] ?? 0) && (samples[i] ?? 0) !== 0) count++;
  }
  return count;
}

function maxStep(samples: Float32Array, from: number, to: number): number {
  let step = 0;
  for (let i = from + 1; i < to; i++) step = Math.max(step, Math.abs((samples[i] ?? 0) - (samples[i - 1] ?? 0)));
  return step;
}

const MPEG1_LAYER3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_LAYER3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

interface FrameSummary {
  frames: number;
  sampleRates: Set<number>;
  bitrates: Set<number>;
  mono: boolean;
  samplesPerFrame: number;
}

/** Walks MPEG audio frame headers (after an optional ID3v2 tag); throws on a broken frame chain. */
function parseMp3(bytes: Uint8Array): FrameSummary {
  let offset = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    offset = 10 + size;
  }
  const summary: FrameSummary = {
    frames: 0,
    sampleRates: new Set(),
    bitrates: new Set(),
    mono: true,
    samplesPerFrame: 0,
  };
  while (offset + 4 <= bytes.length) {
    const [b0, b1, b2, b3] = [
      bytes[offset] ?? 0,
      bytes[offset + 1] ?? 0,
      bytes[offset + 2] ?? 0,
      bytes[offset + 3] ?? 0,
    ];
    if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`No frame sync at byte ${offset}`);
    const version = (b1 >> 3) & 3;
    if (((b1 >> 1) & 3) !== 1) throw new Error('Not Layer III');
    const isMpeg1 = version === 3;
    const kbps = (isMpeg1 ? MPEG1_LAYER3_KBPS : MPEG2_LAYER3_KBPS)[b2 >> 4] ?? 0;
    const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3] ?? 0;
    if (kbps === 0 || sampleRate === 0) throw new Error(`Bad header at byte ${offset}`);
    const padding = (b2 >> 1) & 1;
    summary.frames++;
    summary.sampleRates.add(sampleRate);
    summary.bitrates.add(kbps);
    summary.mono &&= b3 >> 6 === 3;
    summary.samplesPerFrame = isMpeg1 ? 1152 : 576;
    offset += Math.floor(((isMpeg1 ? 144_000 : 72_000) * kbps) / sampleRate) + padding;
  }
  return summary;
}

describe('tones', () => {
  it('sineTone has the requested frequency (zero crossings and DFT)', () => {
    const tone = sineTone(528, 1);
    expect(tone.length).toBe(SAMPLE_RATE);
    expect(Math.abs(zeroCrossings(tone) - 2 * 528)).toBeLessThanOrEqual(2);
    expect(dominantFrequency(tone.subarray(0, SAMPLE_RATE / 2), 100, 1500)).toBe(528);
    expect(peakOf(tone)).toBeCloseTo(1, 3);
  });

  it('layeredTone sums partials with their gains', () => {
    const tone = layeredTone(
      [
        { freqHz: 174, gain: 1 },
        { freqHz: 348, gain: 0.25 },
      ],
      1,
    );
    const ratio = powerAt(tone, 348) / powerAt(tone, 174);
    expect(ratio).toBeCloseTo(0.0625, 2);
    expect(powerAt(tone, 261)).toBeLessThan(powerAt(tone, 174) * 1e-3);
  });

  it('wholeCycleSeconds picks a duration where every frequency completes whole cycles', () => {
    const seconds = wholeCycleSeconds([261.6, 174, 1 / 15], 60);
    expect(seconds).toBe(60);
    const short = wholeCycleSeconds([963], 0.5);
    expect(Math.abs(short - 0.5)).toBeLessThan(0.12);
    // The sample right after the buffer continues exactly where the buffer began: no phase jump on loop.
    for (const [freq, approx] of [
      [963, 0.5],
      [261.6, 1],
      [432, 0.3],
    ] as const) {
      const length = Math.round(wholeCycleSeconds([freq], approx) * SAMPLE_RATE);
      const extended = sineTone(freq, (length + 1) / SAMPLE_RATE);
      expect(extended[length]).toBeCloseTo(extended[0] ?? NaN, 4);
      expect((freq * length) / SAMPLE_RATE).toBeCloseTo(Math.round((freq * length) / SAMPLE_RATE), 6);
    }
  });
});

describe('fades and levels', () => {
  it('fades start and end at silence with no step', () => {
    const noise = whiteNoise(5, 7);
    const faded = applyFades(noise, 2);
    const fiftyMs = Math.round(0.05 * SAMPLE_RATE);
    expect(Math.abs(faded[0] ?? 1)).toBe(0);
    expect(Math.abs(faded[faded.length - 1] ?? 1)).toBe(0);
    // Unfaded white noise jumps by up to 2 between samples; faded, the first and last 50 ms barely move.
    expect(maxStep(noise, 0, fiftyMs)).toBeGreaterThan(1);
    expect(maxStep(faded, 0, fiftyMs)).toBeLessThan(0.01);
    expect(maxStep(faded, faded.length - fiftyMs, faded.length)).toBeLessThan(0.01);
    // The middle is untouched.
    expect(faded[2.5 * SAMPLE_RATE]).toBe(noise[2.5 * SAMPLE_RATE]);
  });

  it('normalizePeak reaches but never exceeds the target, and never above 0 dBFS', () => {
    const loud = mix([
      { samples: sineTone(200, 0.5), gain: 3 },
      { samples: whiteNoise(0.5, 3), gain: 2 },
    ]);
    const normalised = normalizePeak(loud, -3);
    expect(peakOf(normalised)).toBeLessThanOrEqual(dbfsToGain(-3));
    expect(peakOf(normalised)).toBeGreaterThan(dbfsToGain(-3) * 0.999);
    expect(peakOf(normalizePeak(loud, 6))).toBeLessThanOrEqual(1);
    expect(peakOf(normalizePeak(new Float32Array(10), -3))).toBe(0);
  });

  it('toInt16 clamps instead of wrapping', () => {
    expect(Array.from(toInt16(Float32Array.from([2, -2, 0.5, 0])))).toEqual([32767, -32768, 16384, 0]);
  });
});

describe('noise', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(pinkNoise(0.5, 42)).toEqual(pinkNoise(0.5, 42));
    expect(brownNoise(0.5, 42)).toEqual(brownNoise(0.5, 42));
    expect(pinkNoise(0.5, 42)).not.toEqual(pinkNoise(0.5, 43));
  });

  it('pink falls with frequency, brown falls faster, white stays flat', () => {
    const ratio = (samples: Float32Array) => bandPower(samples, 100, 300) / bandPower(samples, 4000, 4200);
    const white = ratio(whiteNoise(2, 1));
    const pink = ratio(pinkNoise(2, 1));
    const brown = ratio(brownNoise(2, 1));
    // Ideal: white 1, pink ≈ 4100/200 ≈ 20 (−3 dB/octave), brown ≈ 20² (−6 dB/octave).
    expect(white).toBeGreaterThan(0.5);
    expect(white).toBeLessThan(2);
    expect(pink).toBeGreaterThan(8);
    expect(pink).toBeLessThan(50);
    expect(brown).toBeGreaterThan(pink * 5);
    expect(peakOf(pinkNoise(1, 5))).toBeCloseTo(1, 5);
    expect(peakOf(brownNoise(1, 5))).toBeCloseTo(1, 5);
  });
});

describe('encodeMp3', () => {
  it('writes mono MPEG Layer III frames whose count matches the duration', () => {
    const seconds = 3;
    const bytes = encodeMp3(applyFades(sineTone(440, seconds), 0.5), SAMPLE_RATE, 64);
    expect(bytes).toBeInstanceOf(Uint8Array);
    const startsWithSync = bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
    const startsWithId3 = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0) === 'ID3';
    expect(startsWithSync || startsWithId3).toBe(true);

    const summary = parseMp3(bytes);
    expect([...summary.sampleRates]).toEqual([SAMPLE_RATE]);
    expect([...summary.bitrates]).toEqual([64]);
    expect(summary.mono).toBe(true);
    // The encoder adds under ~0.1 s of priming and padding.
    const impliedSeconds = (summary.frames * summary.samplesPerFrame) / SAMPLE_RATE;
    expect(impliedSeconds).toBeGreaterThanOrEqual(seconds);
    expect(impliedSeconds).toBeLessThan(seconds + 0.15);
    // CBR 64 kbps: 8 KB per second.
    expect(bytes.length / impliedSeconds).toBeCloseTo(8000, -2);
  });
});

describe('seed catalogue', () => {
  const MEDICAL_WORDS =
    /\b(heal|heals|healing|cure|cures|treat|treats|treatment|therapy|dna|repair|disease|pain|anxiety disorder)\b/i;

  it('has ten solfeggio tracks and at least three bonus and three custom tracks', () => {
    const solfeggio = SEED_TRACKS.filter((track) => track.kind === 'selfeggio').map((track) => track.name);
    expect(solfeggio).toEqual([
      '963 Hz · Oneness',
      '852 Hz · Intuition',
      '741 Hz · Expression',
      '639 Hz · Connection',
      '528 Hz · Transformation',
      '432 Hz · Natural tuning',
      '417 Hz · Change',
      '396 Hz · Release',
      '285 Hz · Restoration',
      '174 Hz · Foundation',
    ]);
    expect(SEED_TRACKS.filter((track) => track.kind === 'bonus').length).toBeGreaterThanOrEqual(3);
    expect(SEED_TRACKS.filter((track) => track.kind === 'custom').length).toBeGreaterThanOrEqual(3);
    expect(new Set(SEED_TRACKS.map((track) => track.slug)).size).toBe(SEED_TRACKS.length);
    expect(new Set(SEED_TRACKS.map((track) => `${track.kind}:${track.name}`)).size).toBe(SEED_TRACKS.length);
  });

  it('describes tracks without medical claims', () => {
    for (const track of SEED_TRACKS) {
      expect(track.description.length).toBeGreaterThan(40);
      expect(track.description).not.toMatch(MEDICAL_WORDS);
    }
  });

  it('renders a solfeggio track of a minute or more at its frequency, peaking at −3 dBFS, silent at both ends', () => {
    const track = SEED_TRACKS.find((candidate) => candidate.name.startsWith('963 Hz'));
    const samples = track?.render() ?? new Float32Array();
    expect(samples.length / SAMPLE_RATE).toBeGreaterThanOrEqual(TRACK_SECONDS);
    expect(samples.length / SAMPLE_RATE).toBeLessThanOrEqual(75);
    expect(peakOf(samples)).toBeLessThanOrEqual(dbfsToGain(-3));
    expect(peakOf(samples)).toBeGreaterThan(dbfsToGain(-3.1));
    expect(Math.abs(samples[0] ?? 1)).toBe(0);
    expect(Math.abs(samples[samples.length - 1] ?? 1)).toBe(0);
    expect(dominantFrequency(samples.subarray(10 * SAMPLE_RATE, 10.5 * SAMPLE_RATE), 800, 1100)).toBe(963);
  });
});
