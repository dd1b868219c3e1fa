import { interleavePcm16, wavHeader } from './wav';

// A take of one's own voice made ready to keep (docs/product/screens.md#spoken-affirmations), with no
// Web Audio inside so it can be unit-tested: one channel, the silence before and after the words cut
// off, as the 16-bit WAV file the server keeps (docs/product/api.md#own-voice).

/** The rate takes are kept at: eSpeak NG's, so both voices' clips loop alike, and ample for speech. */
export const TAKE_SAMPLE_RATE = 22_050;
/** Quieter than this (dB of full scale) is the room, not the voice. */
const SILENCE_DB = -45;
/** Kept around the words so a breath's start and a word's tail are not clipped. */
const MARGIN_SECONDS = 0.15;

/** The channels averaged into one. */
export function mixToMono(channels: readonly Float32Array[]): Float32Array<ArrayBuffer> {
  const frames = Math.min(...channels.map((channel) => channel.length));
  const mono = new Float32Array(Number.isFinite(frames) ? frames : 0);
  for (const channel of channels) for (let n = 0; n < mono.length; n++) mono[n]! += channel[n]! / channels.length;
  return mono;
}

/**
 * The samples from a little before the first one louder than the room to a little after the last;
 * empty when nothing was louder (a muted or missing microphone).
 */
export function trimSilence(samples: Float32Array<ArrayBuffer>, sampleRate: number): Float32Array<ArrayBuffer> {
  const threshold = 10 ** (SILENCE_DB / 20);
  let first = -1;
  let last = -1;
  for (let n = 0; n < samples.length; n++) {
    if (Math.abs(samples[n]!) < threshold) continue;
    if (first < 0) first = n;
    last = n;
  }
  if (first < 0) return new Float32Array(0);
  const margin = Math.round(MARGIN_SECONDS * sampleRate);
  return samples.slice(Math.max(0, first - margin), Math.min(samples.length, last + 1 + margin));
}

/** One channel of samples as a 16-bit PCM WAV file. */
export function monoWav(samples: Float32Array, sampleRate: number): Blob {
  return new Blob([wavHeader(samples.length, sampleRate, 1), interleavePcm16([samples])], { type: 'audio/wav' });
}
