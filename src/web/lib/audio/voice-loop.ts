// The spoken-affirmations layer's loop, with no Web Audio inside so it can be unit-tested: each
// message once, one after another, each followed by the same pause, and then from the top again
// (docs/decisions/019-spoken-affirmations-and-audio-export.md).

export interface SpokenClip {
  /** Mono samples as the synthesiser made them. */
  samples: Float32Array<ArrayBuffer>;
  sampleRate: number;
}

export const VOICE_PAUSES_SECONDS = [1, 2, 4, 8] as const;
export const DEFAULT_VOICE_PAUSE_SECONDS = 2;
/** More messages than this make a loop of many minutes; the first ones are spoken. */
export const MAX_SPOKEN_MESSAGES = 40;

/** Where each clip starts in the loop (frames), and the loop's length: clip, pause, clip, pause… */
export function voiceSchedule(clipFrames: readonly number[], sampleRate: number, pauseSeconds: number) {
  const pause = Math.max(0, Math.round((Number.isFinite(pauseSeconds) ? pauseSeconds : 0) * sampleRate));
  const starts: number[] = [];
  let at = 0;
  for (const frames of clipFrames) {
    starts.push(at);
    at += frames + pause;
  }
  return { starts, frames: at, pauseFrames: pause };
}

/**
 * The whole loop as one buffer, scaled so its loudest sample is full scale (as every layer's source
 * peaks at full scale, decision 016: the layer's gain is then its peak level). Clips of another
 * rate than the first are skipped (one synthesiser makes them all at one rate).
 */
export function buildVoiceLoop(clips: readonly SpokenClip[], pauseSeconds: number): SpokenClip | null {
  const sampleRate = clips[0]?.sampleRate;
  if (!sampleRate) return null;
  const usable = clips.filter((clip) => clip.sampleRate === sampleRate && clip.samples.length > 0);
  const { starts, frames } = voiceSchedule(
    usable.map((clip) => clip.samples.length),
    sampleRate,
    pauseSeconds,
  );
  if (frames === 0) return null;
  const samples = new Float32Array(frames);
  usable.forEach((clip, index) => samples.set(clip.samples, starts[index]));
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  if (peak > 0) for (let n = 0; n < frames; n++) samples[n]! /= peak;
  return { samples, sampleRate };
}
