import { pinkFilter } from '@shared/noise';
import { mulberry32 } from '@shared/random';

// Noise colours generated in the browser (no files): white, pink (−3 dB/octave, Paul Kellet's
// refined filter) and brown (−6 dB/octave, leaky-integrated white), as loops that repeat with no seam.

export const NOISE_COLOURS = ['white', 'pink', 'brown'] as const;
export type NoiseColour = (typeof NOISE_COLOURS)[number];

export const NOISE_LABELS: Record<NoiseColour, string> = {
  white: 'White noise',
  pink: 'Pink noise',
  brown: 'Brown noise',
};

function colour(white: Float32Array, kind: NoiseColour): Float32Array {
  if (kind === 'white') return white;
  if (kind === 'pink') return pinkFilter(white);
  const out = new Float32Array(white.length);
  let level = 0;
  for (let i = 0; i < white.length; i++) {
    level = 0.998 * level + 0.02 * white[i]!;
    out[i] = level;
  }
  return out;
}

/**
 * `frames` samples of a colour that loop seamlessly, peak exactly 1. The first `crossfade` frames
 * blend the noise that would follow the end into its start (equal power, as the two are
 * uncorrelated), so the last sample runs on into the first as naturally as any two neighbours do.
 */
export function noiseLoop(
  kind: NoiseColour,
  frames: number,
  seed = 7,
  crossfade = Math.floor(frames / 8),
): Float32Array {
  const next = mulberry32(seed);
  // Run-in first so the filters have settled, then the loop and the crossfade's tail.
  const runIn = 4096;
  const white = new Float32Array(runIn + frames + crossfade);
  for (let i = 0; i < white.length; i++) white[i] = next() * 2 - 1;
  const coloured = colour(white, kind).subarray(runIn);
  let mean = 0;
  for (const value of coloured) mean += value / coloured.length;
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) out[i] = coloured[i]! - mean;
  for (let i = 0; i < crossfade; i++) {
    const x = (i + 0.5) / crossfade;
    const into = Math.sin((Math.PI / 2) * x);
    const from = Math.cos((Math.PI / 2) * x);
    out[i] = (coloured[i]! - mean) * into + (coloured[frames + i]! - mean) * from;
  }
  let peak = 0;
  for (const value of out) peak = Math.max(peak, Math.abs(value));
  if (peak > 0) for (let i = 0; i < frames; i++) out[i] = out[i]! / peak;
  return out;
}
