import { interleavePcm16, wavHeader } from './wav';

// A take of one's own voice made ready to keep (docs/product/screens.md#spoken-affirmations), with no
// Web Audio inside so it can be unit-tested: one channel, the silence before and after the words cut
// off, its speech levelled to one loudness, as the 16-bit WAV file the server keeps
// (docs/product/api.md#own-voice).

/** The rate takes are kept at: eSpeak NG's, so both voices' clips loop alike, and ample for speech. */
export const TAKE_SAMPLE_RATE = 22_050;
/** Quieter than this (dB of full scale) is the room, not the voice. */
const SILENCE_DB = -45;
/** Kept around the words so a breath's start and a word's tail are not clipped. */
const MARGIN_SECONDS = 0.15;
/**
 * The speech level every take is scaled to (dBFS, by `speechLevel`), near eSpeak NG's own: its clips
 * measure −17 to −21 (median −18.4) in every voice and speed, 12–19 dB under their peaks. The voice
 * loop is scaled by its loudest sample, so takes at −20 peaking under the ceiling put the speech at
 * most 19 dB under the layer's peak, where the synthesised speech sits (16–18.5 dB); and the 19 dB
 * above −20 hold a voice's peaks, so the ceiling seldom has to lower one take below the others.
 */
export const SPEECH_LEVEL_DB = -20;
/** No sample of a levelled take passes this (dBFS): a take with a loud click is lowered, never clipped. */
export const PEAK_CEILING_DB = -1;
/**
 * A take is raised by at most this (dB): speech at −40 dBFS still reaches the level, but the room of a
 * near-silent take is not blown up.
 */
export const MAX_LEVEL_GAIN_DB = 20;
/** Syllable-sized frames whose loudness is measured one by one. */
const FRAME_SECONDS = 0.02;
/** Frames this far under the speech's level are pauses, breaths and the room (ITU-R BS.1770's relative gate). */
const RELATIVE_GATE_DB = -10;

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

/**
 * The level of a take's speech (RMS, 1 = full scale), pauses left out: the RMS of its 20 ms frames
 * that are within 10 dB of that RMS, found from the frames louder than the room (−45 dBFS); 0 when
 * none is louder than the room.
 */
export function speechLevel(samples: Float32Array, sampleRate: number): number {
  const size = Math.max(1, Math.round(FRAME_SECONDS * sampleRate));
  const frames: { energy: number; length: number }[] = [];
  for (let start = 0; start < samples.length; start += size) {
    const end = Math.min(samples.length, start + size);
    let energy = 0;
    for (let n = start; n < end; n++) energy += samples[n]! ** 2;
    frames.push({ energy, length: end - start });
  }
  /** How many frames have a mean square of at least `gate`, and the mean square of them together. */
  const above = (gate: number) => {
    let count = 0;
    let energy = 0;
    let length = 0;
    for (const frame of frames) {
      if (frame.energy < gate * frame.length) continue;
      count++;
      energy += frame.energy;
      length += frame.length;
    }
    return { count, meanSquare: energy / Math.max(1, length) };
  };
  let speech = above(10 ** (SILENCE_DB / 10));
  if (speech.count === 0) return 0;
  // The gate moves to 10 dB under what it lets through until that stops changing. A higher gate lets
  // only louder frames through, so it moves one way and settles, at a level that pauses (of a room
  // more than 10 dB under the speech) do not pull down however long they are.
  for (;;) {
    const next = above(speech.meanSquare * 10 ** (RELATIVE_GATE_DB / 10));
    if (next.count === speech.count) return Math.sqrt(speech.meanSquare);
    speech = next;
  }
}

/**
 * The take scaled so its speech is at `SPEECH_LEVEL_DB`, every take alike whatever the microphone and
 * distance were: less when that would put a sample past `PEAK_CEILING_DB`, and never raised by more
 * than `MAX_LEVEL_GAIN_DB`. A take with nothing louder than the room is returned as it was.
 */
export function levelTake(samples: Float32Array<ArrayBuffer>, sampleRate: number): Float32Array<ArrayBuffer> {
  const level = speechLevel(samples, sampleRate);
  if (level === 0) return samples.slice();
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  const gain = Math.min(
    10 ** (SPEECH_LEVEL_DB / 20) / level,
    10 ** (PEAK_CEILING_DB / 20) / peak,
    10 ** (MAX_LEVEL_GAIN_DB / 20),
  );
  return samples.map((sample) => sample * gain);
}

/** One channel of samples as a 16-bit PCM WAV file. */
export function monoWav(samples: Float32Array, sampleRate: number): Blob {
  return new Blob([wavHeader(samples.length, sampleRate, 1), interleavePcm16([samples])], { type: 'audio/wav' });
}
