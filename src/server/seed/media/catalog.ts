import type { AudioKind } from '@shared/contract/content';
import {
  SAMPLE_RATE,
  amplitudeSwell,
  applyFades,
  brownNoise,
  encodeMp3,
  layeredTone,
  lowPass,
  mix,
  normalizePeak,
  pinkNoise,
  wholeCycleSeconds,
  type Partial,
} from './audio';
import { renderCover, type CoverOptions } from './cover';

// The audio library seeded at first start: ten solfeggio tones, plus bonus (noise) and custom
// (layered drone) tracks. Every track is synthesised here, deterministically; nothing is downloaded.

export interface SeedTrack {
  kind: AudioKind;
  name: string;
  /** File-name stem, e.g. "528-hz-transformation". */
  slug: string;
  description: string;
  /** Mono PCM at SAMPLE_RATE, faded in and out, peak at −3 dBFS. */
  render(): Float32Array;
  cover: CoverOptions;
}

export const TRACK_SECONDS = 60;
export const MP3_KBPS = 64;
const FADE_SECONDS = 2;
const PEAK_DBFS = -3;

function finish(samples: Float32Array): Float32Array {
  return normalizePeak(applyFades(samples, FADE_SECONDS), PEAK_DBFS);
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Partials (and their swell rates) over a duration that loops without a phase jump. */
function renderPartials(partials: readonly Partial[]): Float32Array {
  const rates = partials.flatMap((partial) => [partial.freqHz, ...(partial.swell ? [partial.swell.rateHz] : [])]);
  return finish(layeredTone(partials, wholeCycleSeconds(rates, TRACK_SECONDS)));
}

// ---- Solfeggio --------------------------------------------------------------------------------

const SOLFEGGIO: readonly { hz: number; title: string; description: string }[] = [
  {
    hz: 963,
    title: 'Oneness',
    description:
      'A high, airy tone that sits softly in the background. Many listeners use it for quiet, open-ended meditation and a sense of stillness.',
  },
  {
    hz: 852,
    title: 'Intuition',
    description:
      'A bright, clear tone for turning attention inward. Try it with eyes closed and slow breathing; it may help you settle into a calm focus.',
  },
  {
    hz: 741,
    title: 'Expression',
    description: 'A crisp, clean tone for clearing your head before writing, speaking or creative work.',
  },
  {
    hz: 639,
    title: 'Connection',
    description: 'A warm, even tone often chosen for reflective sessions about the people in your life.',
  },
  {
    hz: 528,
    title: 'Transformation',
    description:
      'The best-known solfeggio tone: smooth and gently uplifting, good for a hopeful start to the day or a fresh start of any kind.',
  },
  {
    hz: 432,
    title: 'Natural tuning',
    description: 'A soft, rounded tone loved by musicians. A gentle companion for unwinding in the evening.',
  },
  {
    hz: 417,
    title: 'Change',
    description: 'A steady, unhurried tone for sessions about letting go of old habits and making room for new ones.',
  },
  {
    hz: 396,
    title: 'Release',
    description:
      'A grounded tone for setting worries aside for a while. Breathe out slowly and let it carry you; it may help you relax.',
  },
  {
    hz: 285,
    title: 'Restoration',
    description: 'A low, soothing tone for slow, restful sessions after a demanding day.',
  },
  {
    hz: 174,
    title: 'Foundation',
    description: 'The deepest tone of the set, calm and heavy. Well suited to body scans and grounding practice.',
  },
];

/** A pure tone with a barely-there 0.1 Hz swell, so a long listen feels like breathing, not a test tone. */
function solfeggioTone(hz: number): Float32Array {
  return renderPartials([{ freqHz: hz, gain: 1, swell: { rateHz: 0.1, depth: 0.2 } }]);
}

const solfeggioTracks: SeedTrack[] = SOLFEGGIO.map(({ hz, title, description }) => {
  const name = `${hz} Hz · ${title}`;
  return {
    kind: 'selfeggio',
    name,
    slug: slugify(`${hz} Hz ${title}`),
    description: `${description} A pure ${hz} Hz tone with a slow, gentle swell, faded in and out so it loops smoothly.`,
    render: () => solfeggioTone(hz),
    cover: { seed: hz, frequencyHz: hz, label: `${hz} Hz`, name: title },
  };
});

// ---- Bonus: noise beds --------------------------------------------------------------------------

function deepBrownNoise(): Float32Array {
  const noise = brownNoise(TRACK_SECONDS, 101);
  return finish(amplitudeSwell(noise, { rateHz: 1 / 30, depth: 0.12 }));
}

function softPinkRain(): Float32Array {
  // Pink noise with its brightest hiss rolled off, plus a faint patter of brighter noise on top.
  const bed = lowPass(pinkNoise(TRACK_SECONDS, 202), 4500);
  const patter = amplitudeSwell(lowPass(pinkNoise(TRACK_SECONDS, 203), 9000), { rateHz: 1 / 12, depth: 0.6 });
  return finish(
    mix([
      { samples: bed, gain: 1 },
      { samples: patter, gain: 0.25 },
    ]),
  );
}

function oceanDrift(): Float32Array {
  // Two layers of dark noise swelling at different slow rates read as waves arriving and retreating.
  const undertow = lowPass(brownNoise(TRACK_SECONDS, 301), 600);
  const surf = lowPass(pinkNoise(TRACK_SECONDS, 302), 1400);
  const waves = amplitudeSwell(surf, { rateHz: 0.1, depth: 0.85 });
  const swash = amplitudeSwell(lowPass(pinkNoise(TRACK_SECONDS, 303), 3000), {
    rateHz: 1 / 7.5,
    depth: 0.9,
    phase: 1.3,
  });
  return finish(
    mix([
      { samples: undertow, gain: 0.6 },
      { samples: waves, gain: 1 },
      { samples: swash, gain: 0.35 },
    ]),
  );
}

const bonusTracks: SeedTrack[] = [
  {
    name: 'Deep Brown Noise',
    description:
      'A deep, steady rumble, like a distant waterfall. Brown noise masks background sounds and may help you relax, focus or drift off to sleep.',
    render: deepBrownNoise,
    cover: { seed: 9101, label: 'Deep Brown Noise', name: 'Brown noise' },
  },
  {
    name: 'Soft Pink Rain',
    description:
      'Gentle, even noise with a soft patter, like steady rain on a window. Pleasant for reading, working or winding down.',
    render: softPinkRain,
    cover: { seed: 9202, label: 'Soft Pink Rain', name: 'Pink noise' },
  },
  {
    name: 'Ocean Drift',
    description:
      'Slow swells of filtered noise that rise and fall about every ten seconds, like waves on a quiet shore. Try breathing along with them.',
    render: oceanDrift,
    cover: { seed: 9303, label: 'Ocean Drift', name: 'Swelling surf' },
  },
].map((track) => ({ ...track, kind: 'bonus' as const, slug: slugify(track.name) }));

// ---- Custom: layered drones ---------------------------------------------------------------------

const customTracks: SeedTrack[] = [
  {
    name: 'Evening Drone',
    description:
      'A warm, low chord built on 174 Hz, with each note breathing slowly on its own. Made for the end of the day.',
    render: () =>
      renderPartials([
        { freqHz: 174, gain: 1, swell: { rateHz: 1 / 20, depth: 0.25 } },
        { freqHz: 261.6, gain: 0.5, swell: { rateHz: 1 / 15, depth: 0.5, phase: 2 } },
        { freqHz: 348, gain: 0.35, swell: { rateHz: 1 / 12, depth: 0.6, phase: 4 } },
        { freqHz: 87, gain: 0.3 },
      ]),
    cover: { seed: 7101, frequencyHz: 174, label: 'Evening Drone', name: '174 · 261.6 · 348 Hz' },
  },
  {
    name: 'Morning Light',
    description:
      'A bright, open fifth of 528 and 792 Hz that gently brightens and softens. An easy, clear start to the morning.',
    render: () =>
      renderPartials([
        { freqHz: 528, gain: 1, swell: { rateHz: 0.1, depth: 0.2 } },
        { freqHz: 792, gain: 0.45, swell: { rateHz: 1 / 15, depth: 0.6, phase: 1.5 } },
        { freqHz: 264, gain: 0.25, swell: { rateHz: 1 / 30, depth: 0.4, phase: 3 } },
      ]),
    cover: { seed: 7202, frequencyHz: 528, label: 'Morning Light', name: '528 · 792 Hz' },
  },
  {
    name: 'Starfield',
    description:
      'A soft 432 Hz tone with high overtones that fade in and out slowly, like stars twinkling. Spacious and quiet, for long sits.',
    render: () =>
      renderPartials([
        { freqHz: 216, gain: 0.35 },
        { freqHz: 432, gain: 1, swell: { rateHz: 1 / 60, depth: 0.2 } },
        { freqHz: 648, gain: 0.3, swell: { rateHz: 1 / 20, depth: 0.9, phase: 0.5 } },
        { freqHz: 864, gain: 0.22, swell: { rateHz: 1 / 15, depth: 0.95, phase: 2.1 } },
        { freqHz: 1296, gain: 0.12, swell: { rateHz: 1 / 12, depth: 1, phase: 3.7 } },
        { freqHz: 1728, gain: 0.08, swell: { rateHz: 0.1, depth: 1, phase: 5.2 } },
      ]),
    cover: { seed: 7303, frequencyHz: 864, label: 'Starfield', name: 'Shimmering overtones' },
  },
].map((track) => ({ ...track, kind: 'custom' as const, slug: slugify(track.name) }));

export const SEED_TRACKS: readonly SeedTrack[] = [...solfeggioTracks, ...bonusTracks, ...customTracks];

/** Synthesises, encodes and renders one track. CPU-bound: about a second per 60 s track. */
export async function buildTrackFiles(track: SeedTrack): Promise<{ audio: Uint8Array; cover: Buffer }> {
  const cover = renderCover(track.cover);
  const audio = encodeMp3(track.render(), SAMPLE_RATE, MP3_KBPS);
  return { audio, cover: await cover };
}
