// The sound engine's arithmetic, with no Web Audio inside so it can be unit-tested: decibels, the
// limiter's gain law, the sleep timer's fade envelope and where a decoded track really loops.

/** Start, stop, pause and layer changes are linear gain ramps this long: no click, and they end on time. */
export const FADE_SECONDS = 0.08;
/** Frequency changes while playing glide in a straight line this long: no zipper noise, no jump. */
export const GLIDE_SECONDS = 0.1;
/** A level below this is silence on the sliders (and in the arithmetic). */
export const MIN_DB = -60;

export const dbToGain = (db: number): number => (db <= MIN_DB ? 0 : 10 ** (db / 20));
export const gainToDb = (gain: number): number => (gain <= 0 ? -Infinity : 20 * Math.log10(gain));

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** A gain of 0–1; anything unreadable is silence rather than a surprise. */
export const clampGain = (gain: number): number => (Number.isFinite(gain) ? clamp(gain, 0, 1) : 0);

/**
 * The limiter, as a gain law: every layer's source peaks at most at 1 (full scale), so the mix peaks
 * at most at the sum of the layer gains. When that sum passes 1 the whole mix is scaled by 1 / sum,
 * so the mix never passes full scale and, after the master volume, never passes the chosen volume.
 * Unlike a compressor it never changes the balance between layers nor a level that already fits.
 */
export function headroomFor(layerGains: readonly number[]): number {
  const sum = layerGains.reduce((total, gain) => total + clampGain(gain), 0);
  return sum > 1 ? 1 / sum : 1;
}

/** The loudest the mix can be, as a gain of full scale: Σ gains × headroom × volume ≤ volume. */
export function mixCeiling(layerGains: readonly number[], volume: number): number {
  const sum = layerGains.reduce((total, gain) => total + clampGain(gain), 0);
  return sum * headroomFor(layerGains) * clampGain(volume);
}

// The sleep timer.

export const SLEEP_TIMER_MINUTES = [15, 30, 45, 60, 90, 120, 180, 240, 360, 480] as const;
export const FADE_OUT_SECONDS = [10, 30, 60, 120, 300, 600] as const;
export const DEFAULT_FADE_OUT_SECONDS = 60;
export const MAX_FADE_OUT_SECONDS = 600;

export interface SleepTimerPlan {
  /** Engine-clock seconds at which the fade begins, and at which everything is silent and stops. */
  fadeStartsAt: number;
  endsAt: number;
}

/** When a timer set at `now` for `seconds` fades and ends; the fade is at most 10 min and never longer than the timer. */
export function planSleepTimer(now: number, seconds: number, fadeSeconds: number): SleepTimerPlan {
  const length = Math.max(0, seconds);
  const fade = clamp(Number.isFinite(fadeSeconds) ? fadeSeconds : 0, 0, Math.min(MAX_FADE_OUT_SECONDS, length));
  return { fadeStartsAt: now + length - fade, endsAt: now + length };
}

/**
 * The fade-out's gain at `progress` (0 → 1): (1 − p)³, i.e. about −18 dB halfway, −60 dB at 90 %
 * and exactly 0 at the end. Falling roughly evenly in decibels it sounds like a steady fade, where a
 * straight line in gain would seem to hold and then drop at the end.
 */
export function fadeOutGain(progress: number): number {
  const p = clamp(Number.isFinite(progress) ? progress : 1, 0, 1);
  return (1 - p) ** 3;
}

/** The fade as `segments` straight ramps: [time, gain] points from (start, 1) to (start + seconds, 0). */
export function fadeOutPoints(start: number, seconds: number, segments = 64): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= segments; i++) points.push([start + (seconds * i) / segments, fadeOutGain(i / segments)]);
  return points;
}

/** What a timer has left, in whole seconds for display, or null for none. */
export const timeLeft = (endsAt: number, now: number) => Math.max(0, Math.ceil(endsAt - now));

/** 0:42, 12:03, 1:02:03. */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// Tracks.

/** −60 dBFS: quieter than this at a file's ends is an encoder's delay or padding, not the track. */
export const SILENCE_THRESHOLD = 0.001;

/**
 * The frames a decoded track really loops over: from its first to its last sample above the
 * silence threshold on any channel. An MP3's encoder delay and end padding (tens of milliseconds of
 * silence) would otherwise be a gap at every loop; the buffer loops sample-accurately in between.
 * The whole buffer when it is all silence.
 */
export function loopBounds(channels: readonly ArrayLike<number>[], threshold = SILENCE_THRESHOLD) {
  const length = Math.min(...channels.map((channel) => channel.length));
  const loud = (i: number) => channels.some((channel) => Math.abs(channel[i] ?? 0) > threshold);
  let start = 0;
  while (start < length && !loud(start)) start++;
  if (start === length) return { start: 0, end: length };
  let end = length;
  while (end > start && !loud(end - 1)) end--;
  return { start, end };
}

/** Beats (binaural or isochronic) above this are no longer heard as a beat: the screens warn. */
export const BEAT_WARNING_HZ = 30;

// The spoken-affirmations layer (docs/decisions/019-spoken-affirmations-and-audio-export.md).

/** The subliminal level's range: 0 dB is as loud as the other layers, −35 dB far under them. */
export const VOICE_LEVEL_MIN_DB = -35;
export const VOICE_LEVEL_MAX_DB = 0;
/** Below this the voice is called masked on the screens (and in the docs). */
export const VOICE_MASKED_DB = -10;

/**
 * The voice layer's gain: `relativeDb` under the loudest other layer (peak against peak), or, when
 * it plays alone, `ownGain` (there is nothing to be under). Follows the other layers as they move.
 */
export function voiceGain(ownGain: number, otherGains: readonly number[], relativeDb: number): number {
  const loudest = Math.max(0, ...otherGains.map(clampGain));
  if (loudest === 0) return clampGain(ownGain);
  const db = Number.isFinite(relativeDb) ? clamp(relativeDb, MIN_DB, VOICE_LEVEL_MAX_DB) : VOICE_LEVEL_MAX_DB;
  return loudest * dbToGain(db);
}
