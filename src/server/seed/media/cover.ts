import sharp from 'sharp';
import { mulberry32 } from '@shared/random';

// Cover art for seed tracks: a night-sky gradient, a ring "flower" shaped by the frequency, a soft
// waveform and the track's label, rasterised from SVG to WebP. Everything derives from the seed, so
// each track keeps the same, distinct cover on every run.

export const COVER_SIZE = 512;
export const BRAND_ACCENT = '#00DC82';
const FONT_FAMILY = 'Inter, DejaVu Sans, sans-serif';

export interface CoverOptions {
  /** Drives colours, star field and shapes. */
  seed: number;
  /** Shapes the rings and waveform; seeded values are used when absent (noise tracks). */
  frequencyHz?: number;
  /** Large text, e.g. "528 Hz" or "Deep Brown Noise". */
  label?: string;
  /**
   * The track's subtitle, e.g. "Transformation". Not drawn: at the size covers are shown it could
   * not be read, and the card prints the track's name beside the cover.
   */
  name?: string;
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const s = saturation / 100;
  const l = lightness / 100;
  const chroma = (1 - Math.abs(2 * l - 1)) * s;
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = l - (chroma * Math.max(-1, Math.min(k - 3, 9 - k, 1))) / 2;
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

const round = (value: number) => Math.round(value * 10) / 10;

/** A closed ring whose radius ripples `lobes` times around the circle (a cymatics-like petal shape). */
function ripplingRing(cx: number, cy: number, radius: number, ripple: number, lobes: number, phase: number): string {
  const steps = 180;
  const points: string[] = [];
  for (let i = 0; i < steps; i++) {
    const angle = (2 * Math.PI * i) / steps;
    const r = radius + ripple * Math.sin(lobes * angle + phase);
    points.push(`${round(cx + r * Math.cos(angle))},${round(cy + r * Math.sin(angle))}`);
  }
  return `M${points.join('L')}Z`;
}

/** A horizontal wave whose envelope swells in the middle and fades at both edges. */
function wavePath(y: number, amplitude: number, cycles: number, phase: number): string {
  const steps = 160;
  const points: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const envelope = Math.sin(Math.PI * t) ** 2;
    const x = 32 + t * (COVER_SIZE - 64);
    points.push(`${round(x)},${round(y + amplitude * envelope * Math.sin(2 * Math.PI * cycles * t + phase))}`);
  }
  return `M${points.join('L')}`;
}

/** A gentle line across the whole cover: two slow sines, so it rolls rather than oscillates. */
function driftLine(y: number, amplitude: number, cycles: number, phase: number): string {
  const steps = 128;
  const points: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const offset =
      Math.sin(2 * Math.PI * cycles * t + phase) + 0.4 * Math.sin(2 * Math.PI * (cycles * 2.3) * t + phase * 1.7);
    points.push(`${round(t * COVER_SIZE)},${round(y + amplitude * offset)}`);
  }
  return `M${points.join('L')}`;
}

function labelFontSize(text: string, maxSize: number): number {
  // Semibold DejaVu/Inter average under 0.7 em per character; keep 40 px of margin each side.
  return Math.min(maxSize, Math.floor((COVER_SIZE - 80) / (0.7 * Math.max(1, text.length))));
}

export function coverSvg(options: CoverOptions): string {
  const random = mulberry32(options.seed * 7919 + 17);
  const size = COVER_SIZE;

  // Indigo → teal, each end nudged by the seed so neighbouring tracks differ.
  const indigo = hslToHex(228 + random() * 48, 50 + random() * 20, 8 + random() * 6);
  const teal = hslToHex(160 + random() * 40, 50 + random() * 25, 18 + random() * 10);
  const angle = random() * 360;
  const glowX = 20 + random() * 60;
  const glowY = 15 + random() * 45;

  const frequency = options.frequencyHz ?? 100 + random() * 900;
  // Higher tones get more petals, so the ten solfeggio covers read as a series.
  const lobes = Math.min(16, 3 + Math.round(frequency / 90));
  const ringCount = 4 + Math.floor(random() * 4);
  const twist = (random() - 0.5) * 1.2;
  const centerY = options.label ? 190 : size / 2;
  const baseRadius = options.label ? 116 : 170;
  const phase = random() * Math.PI * 2;
  const accentRing = Math.floor(random() * ringCount);

  const stars = Array.from({ length: 55 }, () => {
    const x = round(random() * size);
    const y = round(random() * size);
    const r = round(0.4 + random() * 1.2);
    const opacity = round(0.15 + random() * 0.55);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" opacity="${opacity}"/>`;
  }).join('');

  const stroke = (isAccent: boolean, index: number, count: number) =>
    `fill="none" stroke="${isAccent ? BRAND_ACCENT : '#ffffff'}" stroke-width="${isAccent ? 2 : 1.2}" opacity="${isAccent ? 0.85 : round(0.12 + (0.25 * index) / count)}"`;

  // Tones get a ring "flower"; noise (no frequency) gets drifting lines, like dunes or swell.
  const motif = Array.from({ length: ringCount }, (_, index) => {
    if (options.frequencyHz === undefined) {
      const y = centerY - baseRadius * 0.8 + (index * baseRadius * 1.6) / (ringCount - 1);
      const path = driftLine(y, 10 + 14 * Math.sin(index + phase) ** 2, 1 + (lobes % 3), phase + index * twist);
      return `<path d="${path}" ${stroke(index === accentRing, index, ringCount)}/>`;
    }
    const radius = baseRadius * (0.35 + (0.65 * (index + 1)) / ringCount);
    const ripple = radius * (0.05 + 0.04 * Math.sin(index + phase));
    const path = ripplingRing(size / 2, centerY, radius, ripple, lobes, phase + index * twist);
    return `<path d="${path}" ${stroke(index === accentRing, index, ringCount)}/>`;
  }).join('');

  const waveCycles = 2 + Math.round(frequency / 120);
  const waveY = options.label ? 340 : 430;
  // Noise covers already are waves; only tones get the waveform under the rings.
  const waves = (options.frequencyHz === undefined ? [] : [0, 1, 2])
    .map((layer) => {
      const path = wavePath(waveY, 18 - layer * 5, waveCycles + layer, phase + layer * 0.9);
      const stroke = layer === 0 ? 'url(#wave)' : '#ffffff';
      return `<path d="${path}" fill="none" stroke="${stroke}" stroke-width="${layer === 0 ? 2.5 : 1}" opacity="${layer === 0 ? 0.9 : 0.2}" stroke-linecap="round"/>`;
    })
    .join('');

  const label = options.label ?? '';
  const labelSize = labelFontSize(label, 64);
  const text = label
    ? `<text x="${size / 2}" y="430" text-anchor="middle" font-family="${FONT_FAMILY}" font-size="${labelSize}" font-weight="600" fill="#ffffff" letter-spacing="1">${escapeXml(label)}</text>`
    : '';

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<defs>
<linearGradient id="sky" gradientTransform="rotate(${round(angle)} 0.5 0.5)"><stop offset="0" stop-color="${indigo}"/><stop offset="1" stop-color="${teal}"/></linearGradient>
<radialGradient id="glow" cx="${round(glowX)}%" cy="${round(glowY)}%" r="60%"><stop offset="0" stop-color="${BRAND_ACCENT}" stop-opacity="0.22"/><stop offset="1" stop-color="${BRAND_ACCENT}" stop-opacity="0"/></radialGradient>
<radialGradient id="vignette" cx="50%" cy="50%" r="75%"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></radialGradient>
<linearGradient id="wave" x1="0" x2="1"><stop offset="0" stop-color="${BRAND_ACCENT}" stop-opacity="0"/><stop offset="0.5" stop-color="${BRAND_ACCENT}"/><stop offset="1" stop-color="${teal}" stop-opacity="0"/></linearGradient>
</defs>
<rect width="${size}" height="${size}" fill="url(#sky)"/>
<rect width="${size}" height="${size}" fill="url(#glow)"/>
${stars}
${motif}
${waves}
<rect width="${size}" height="${size}" fill="url(#vignette)"/>
${text}
</svg>`;
}

/** Renders the cover to a 512×512 WebP. */
export async function renderCover(options: CoverOptions): Promise<Buffer> {
  return sharp(Buffer.from(coverSvg(options)))
    .webp({ quality: 80 })
    .toBuffer();
}
