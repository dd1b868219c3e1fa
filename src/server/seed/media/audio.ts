import { Mp3Encoder } from '@breezystack/lamejs';
import { mulberry32 } from '@shared/random';
import { pinkFilter } from '@shared/noise';

// Audio synthesis for the seed library: mono Float32 PCM in [-1, 1], pure and deterministic.
// 22050 Hz is plenty for tones under 1 kHz and soft noise, and halves encoding time.

export const SAMPLE_RATE = 22050;

export function sampleCount(seconds: number, sampleRate = SAMPLE_RATE): number {
  return Math.max(0, Math.round(seconds * sampleRate));
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return Math.abs(a);
}

/** Best rational approximation p/q of a non-negative number, q ≤ maxDenominator (continued fractions). */
function toFraction(value: number, maxDenominator = 10_000): [number, number] {
  let [p0, q0, p1, q1] = [0, 1, 1, 0];
  let rest = value;
  for (let i = 0; i < 64; i++) {
    const whole = Math.floor(rest);
    const [p2, q2] = [whole * p1 + p0, whole * q1 + q0];
    if (q2 > maxDenominator) break;
    [p0, q0, p1, q1] = [p1, q1, p2, q2];
    if (Math.abs(value - p1 / q1) < 1e-9 * Math.max(1, value) || rest === whole) break;
    rest = 1 / (rest - whole);
  }
  return [p1, q1];
}

/**
 * The duration nearest to `approxSeconds` over which every frequency (tones and swell rates)
 * completes a whole number of cycles, so the buffer loops with no phase jump.
 * Works for rational frequencies such as 261.6 Hz or a 1/60 Hz swell.
 */
export function wholeCycleSeconds(
  frequenciesHz: readonly number[],
  approxSeconds: number,
  sampleRate = SAMPLE_RATE,
): number {
  let periodSamples = 1;
  for (const freq of frequenciesHz) {
    const [numerator, denominator] = toFraction(Math.abs(freq));
    if (numerator === 0) continue;
    // (p/q) * n / sampleRate is whole when n is a multiple of q * sampleRate / gcd(p, q * sampleRate).
    const samplesPerWholeCycle = (denominator * sampleRate) / gcd(numerator, denominator * sampleRate);
    periodSamples = (periodSamples / gcd(periodSamples, samplesPerWholeCycle)) * samplesPerWholeCycle;
    if (periodSamples > approxSeconds * sampleRate * 2) {
      throw new Error(`No whole-cycle duration near ${approxSeconds} s for ${frequenciesHz.join(', ')} Hz`);
    }
  }
  const cycles = Math.max(1, Math.round((approxSeconds * sampleRate) / periodSamples));
  return (cycles * periodSamples) / sampleRate;
}

/** A unit-amplitude sine starting at phase 0. */
export function sineTone(freqHz: number, seconds: number, sampleRate = SAMPLE_RATE): Float32Array {
  const out = new Float32Array(sampleCount(seconds, sampleRate));
  const step = (2 * Math.PI * freqHz) / sampleRate;
  for (let i = 0; i < out.length; i++) out[i] = Math.sin(step * i);
  return out;
}

/** A slow gain swell: the gain moves between 1 − depth and 1 at `rateHz`. */
export interface Swell {
  rateHz: number;
  /** 0 = steady, 1 = swells down to silence. */
  depth: number;
  /** Radians; staggers several swells so they do not breathe together. */
  phase?: number;
}

export interface Partial {
  freqHz: number;
  gain: number;
  swell?: Swell;
}

function swellGain(swell: Swell, index: number, sampleRate: number): number {
  const cycle = 0.5 - 0.5 * Math.cos((2 * Math.PI * swell.rateHz * index) / sampleRate + (swell.phase ?? 0));
  return 1 - swell.depth * cycle;
}

/** Sum of sine partials, each with its own gain and optional slow swell. Not normalised. */
export function layeredTone(partials: readonly Partial[], seconds: number, sampleRate = SAMPLE_RATE): Float32Array {
  const out = new Float32Array(sampleCount(seconds, sampleRate));
  for (const partial of partials) {
    const step = (2 * Math.PI * partial.freqHz) / sampleRate;
    for (let i = 0; i < out.length; i++) {
      const gain = partial.swell ? partial.gain * swellGain(partial.swell, i, sampleRate) : partial.gain;
      out[i] = (out[i] ?? 0) + gain * Math.sin(step * i);
    }
  }
  return out;
}

/** Applies a slow swell to any signal (e.g. noise that rises and falls like waves). */
export function amplitudeSwell(samples: Float32Array, swell: Swell, sampleRate = SAMPLE_RATE): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] ?? 0) * swellGain(swell, i, sampleRate);
  return out;
}

/** Uniform white noise in [-1, 1). */
export function whiteNoise(seconds: number, seed: number, sampleRate = SAMPLE_RATE): Float32Array {
  const random = mulberry32(seed);
  const out = new Float32Array(sampleCount(seconds, sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = random() * 2 - 1;
  return out;
}

/** Pink noise (−3 dB/octave) from Paul Kellet's refined filter, normalised to peak 1. */
export function pinkNoise(seconds: number, seed: number, sampleRate = SAMPLE_RATE): Float32Array {
  return normalizePeak(removeDc(pinkFilter(whiteNoise(seconds, seed, sampleRate))), 0);
}

/** Brown noise (−6 dB/octave above ~18 Hz): leaky-integrated white noise, normalised to peak 1. */
export function brownNoise(seconds: number, seed: number, sampleRate = SAMPLE_RATE): Float32Array {
  const white = whiteNoise(seconds, seed, sampleRate);
  const out = new Float32Array(white.length);
  // The leak keeps the integrator from drifting; its corner (~18 Hz at 22050 Hz) sits below hearing.
  const leak = 0.995;
  let level = 0;
  for (let i = 0; i < white.length; i++) {
    level = leak * level + (1 - leak) * (white[i] ?? 0);
    out[i] = level;
  }
  return normalizePeak(removeDc(out), 0);
}

/** One-pole low-pass: softens noise (rain, surf) without ringing. */
export function lowPass(samples: Float32Array, cutoffHz: number, sampleRate = SAMPLE_RATE): Float32Array {
  const alpha = 1 - Math.exp((-2 * Math.PI * cutoffHz) / sampleRate);
  const out = new Float32Array(samples.length);
  let level = 0;
  for (let i = 0; i < samples.length; i++) {
    level += alpha * ((samples[i] ?? 0) - level);
    out[i] = level;
  }
  return out;
}

function removeDc(samples: Float32Array): Float32Array {
  let sum = 0;
  for (const value of samples) sum += value;
  const mean = samples.length > 0 ? sum / samples.length : 0;
  return samples.map((value) => value - mean);
}

export interface Layer {
  samples: Float32Array;
  gain: number;
}

/** Sums layers with their gains; the result is as long as the longest layer. Not normalised. */
export function mix(layers: readonly Layer[]): Float32Array {
  const length = Math.max(0, ...layers.map((layer) => layer.samples.length));
  const out = new Float32Array(length);
  for (const layer of layers) {
    for (let i = 0; i < layer.samples.length; i++) out[i] = (out[i] ?? 0) + layer.gain * (layer.samples[i] ?? 0);
  }
  return out;
}

export function peakOf(samples: Float32Array): number {
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  return peak;
}

export function dbfsToGain(dbfs: number): number {
  return 10 ** (dbfs / 20);
}

/** Scales so the loudest sample sits at `targetDbfs` (capped at 0 dBFS, so never clips). Silence stays silent. */
export function normalizePeak(samples: Float32Array, targetDbfs = -3): Float32Array {
  const peak = peakOf(samples);
  if (peak === 0) return new Float32Array(samples);
  // A hair under the target, so float32 rounding can never push a sample above it.
  const scale = (dbfsToGain(Math.min(targetDbfs, 0)) * (1 - 1e-6)) / peak;
  return samples.map((value) => value * scale);
}

/** Raised-cosine fade-in and fade-out: starts and ends at exactly 0, with no click. */
export function applyFades(samples: Float32Array, fadeSeconds = 2, sampleRate = SAMPLE_RATE): Float32Array {
  const out = new Float32Array(samples);
  const fadeLength = Math.min(sampleCount(fadeSeconds, sampleRate), Math.floor(samples.length / 2));
  for (let i = 0; i < fadeLength; i++) {
    const gain = 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeLength);
    out[i] = (out[i] ?? 0) * gain;
    const mirror = samples.length - 1 - i;
    out[mirror] = (out[mirror] ?? 0) * gain;
  }
  return out;
}

/** Float → 16-bit PCM, clamped so out-of-range input saturates instead of wrapping. */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const clamped = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = Math.round(clamped < 0 ? clamped * 32768 : clamped * 32767);
  }
  return out;
}

// lamejs actually returns Int8Array (its typings say Uint8Array): view the same bytes unsigned.
function asBytes(chunk: ArrayBufferView): Uint8Array {
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Mono MP3 (CBR) via lamejs, fed in 1152-sample blocks. */
export function encodeMp3(samples: Float32Array, sampleRate: number, kbps = 64): Uint8Array {
  const pcm = toInt16(samples);
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const chunks: Uint8Array[] = [];
  const blockSize = 1152;
  for (let start = 0; start < pcm.length; start += blockSize) {
    chunks.push(asBytes(encoder.encodeBuffer(pcm.subarray(start, start + blockSize))));
  }
  chunks.push(asBytes(encoder.flush()));
  const out = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
