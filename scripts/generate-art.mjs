import { mkdir, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

// Draws the home page's art from SVG (night-sky gradients, star fields, waveforms, soft glows) and
// writes it as WebP (every current browser decodes it; one format keeps the bundle small) into src/web/assets/art/. Deterministic: the same run gives the same files.
// Usage: node scripts/generate-art.mjs

const OUT = path.resolve(import.meta.dirname, '../src/web/assets/art');
const ACCENT = '#00DC82';

/** Small seeded PRNG so star fields are stable between runs. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function stars(rand, width, height, count, maxY = 1) {
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = (rand() * width).toFixed(1);
    const y = (rand() * height * maxY).toFixed(1);
    const r = (0.4 + rand() * rand() * 1.8).toFixed(2);
    const o = (0.25 + rand() * 0.65).toFixed(2);
    out += `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" opacity="${o}"/>`;
  }
  return out;
}

/** A smooth wave across the canvas: a sum of two sines, drawn as a path. */
function wave(width, baseY, amplitude, wavelength, phase, { second = 0.35, steps = 160 } = {}) {
  let d = '';
  for (let i = 0; i <= steps; i++) {
    const x = (i / steps) * width;
    const y =
      baseY +
      amplitude * Math.sin((x / wavelength) * Math.PI * 2 + phase) +
      amplitude * second * Math.sin((x / (wavelength * 0.43)) * Math.PI * 2 + phase * 1.7);
    d += `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`;
  }
  return d;
}

const HERO_SCENES = [
  // Indigo night over a teal horizon, one bright accent wave.
  {
    top: '#070a1c',
    mid: '#1b1a5a',
    bottom: '#0c4a4f',
    glow: ['#3b2fa0', 0.55, 0.78, 0.28],
    waves: 4,
    seed: 11,
    hue: ACCENT,
  },
  // Aurora: teal ribbons high in the sky.
  {
    top: '#050816',
    mid: '#102a4c',
    bottom: '#0b3a3a',
    glow: ['#0f766e', 0.3, 0.35, 0.22],
    waves: 5,
    seed: 23,
    hue: '#5eead4',
  },
  // Dusk violet with a low moon glow.
  {
    top: '#0a0820',
    mid: '#2a1b5e',
    bottom: '#123b5a',
    glow: ['#7c3aed', 0.72, 0.4, 0.25],
    waves: 3,
    seed: 37,
    hue: '#a5b4fc',
  },
  // Deep ocean night, calm horizontal waves.
  {
    top: '#060b1f',
    mid: '#0e2247',
    bottom: '#064e4b',
    glow: ['#00dc82', 0.5, 0.95, 0.3],
    waves: 6,
    seed: 53,
    hue: ACCENT,
  },
];

function heroSvg(scene, width, height) {
  const rand = random(scene.seed);
  const [glowColor, gx, gy, gr] = scene.glow;
  let waves = '';
  for (let i = 0; i < scene.waves; i++) {
    const baseY = height * (0.55 + i * 0.07);
    const amp = height * (0.035 + rand() * 0.03);
    const len = width * (0.45 + rand() * 0.5);
    const opacity = i === 0 ? 0.85 : 0.18 + rand() * 0.22;
    const color = i === 0 ? scene.hue : '#8ea2ff';
    const strokeW = i === 0 ? 3 : 1.5;
    waves += `<path d="${wave(width, baseY, amp, len, rand() * 6)}" fill="none" stroke="${color}" stroke-width="${strokeW}" stroke-linecap="round" opacity="${opacity.toFixed(2)}" ${i === 0 ? 'filter="url(#soft)"' : ''}/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0.35" y2="1">
      <stop offset="0" stop-color="${scene.top}"/>
      <stop offset="0.55" stop-color="${scene.mid}"/>
      <stop offset="1" stop-color="${scene.bottom}"/>
    </linearGradient>
    <radialGradient id="glow" cx="${gx}" cy="${gy}" r="${gr}">
      <stop offset="0" stop-color="${glowColor}" stop-opacity="0.75"/>
      <stop offset="1" stop-color="${glowColor}" stop-opacity="0"/>
    </radialGradient>
    <filter id="soft" x="-10%" y="-50%" width="120%" height="200%"><feGaussianBlur stdDeviation="2.5"/></filter>
  </defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  <rect width="100%" height="100%" fill="url(#glow)"/>
  ${stars(rand, width, height, Math.round((width * height) / 9000), 0.7)}
  ${waves}
</svg>`;
}

const CARD_HZ = [963, 852, 741, 639, 528, 432, 417, 396, 285, 174];

function cardSvg(hz, index, size) {
  const rand = random(hz);
  // Higher tones lean violet, lower tones lean teal: the set reads as one gradient across the grid.
  const t = index / (CARD_HZ.length - 1);
  const mix = (a, b) =>
    Math.round(a + (b - a) * t)
      .toString(16)
      .padStart(2, '0');
  const top = `#${mix(0x1e, 0x06)}${mix(0x1b, 0x2a)}${mix(0x5e, 0x3a)}`;
  const bottom = `#${mix(0x0b, 0x04)}${mix(0x10, 0x1a)}${mix(0x26, 0x22)}`;
  const h = Math.round(size * 0.625);
  // More cycles for higher frequencies: the wave shows the pitch at a glance.
  const cycles = 1.5 + (hz / 963) * 5;
  let rings = '';
  for (let i = 1; i <= 4; i++) {
    rings += `<circle cx="${size * 0.78}" cy="${h * 0.3}" r="${i * size * 0.07}" fill="none" stroke="#fff" stroke-opacity="${(0.12 / i).toFixed(3)}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${h}" viewBox="0 0 ${size} ${h}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${top}"/>
      <stop offset="1" stop-color="${bottom}"/>
    </linearGradient>
    <radialGradient id="g" cx="0.78" cy="0.3" r="0.45">
      <stop offset="0" stop-color="${ACCENT}" stop-opacity="0.35"/>
      <stop offset="1" stop-color="${ACCENT}" stop-opacity="0"/>
    </radialGradient>
    <filter id="soft" x="-10%" y="-50%" width="120%" height="200%"><feGaussianBlur stdDeviation="3"/></filter>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <rect width="100%" height="100%" fill="url(#g)"/>
  ${stars(rand, size, h, 40, 0.6)}
  ${rings}
  <path d="${wave(size, h * 0.68, h * 0.09, size / cycles, index, { second: 0 })}" fill="none" stroke="${ACCENT}" stroke-width="6" opacity="0.45" filter="url(#soft)"/>
  <path d="${wave(size, h * 0.68, h * 0.09, size / cycles, index, { second: 0 })}" fill="none" stroke="${ACCENT}" stroke-width="2.5" stroke-linecap="round"/>
  <path d="${wave(size, h * 0.74, h * 0.05, size / (cycles * 0.6), index + 2, { second: 0 })}" fill="none" stroke="#a5b4fc" stroke-width="1.5" opacity="0.4"/>
</svg>`;
}

async function write(name, svg, width, { quality = 70 } = {}) {
  const image = sharp(Buffer.from(svg)).resize({ width });
  const webp = await image.webp({ quality, effort: 6, smartSubsample: true }).toBuffer();
  await writeFile(path.join(OUT, `${name}.webp`), webp);
  return webp.length;
}

await mkdir(OUT, { recursive: true });
let total = 0;
for (const [i, scene] of HERO_SCENES.entries()) {
  const svg = heroSvg(scene, 1600, 900);
  total += await write(`hero-${i + 1}-1600`, svg, 1600, { quality: 82 });
  total += await write(`hero-${i + 1}-800`, svg, 800, { quality: 82 });
}
for (const [i, hz] of CARD_HZ.entries()) {
  total += await write(`card-${hz}`, cardSvg(hz, i, 480), 480, { quality: 80 });
}
const hero = await stat(path.join(OUT, 'hero-1-800.webp'));
console.log(
  `wrote ${HERO_SCENES.length * 2 + CARD_HZ.length} files, ${(total / 1024).toFixed(0)} KB in total (first mobile hero ${(hero.size / 1024).toFixed(1)} KB)`,
);
