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

/** Points of a regular polygon, as an SVG points list. */
const polygon = (cx, cy, r, sides, rotation = 0) =>
  Array.from({ length: sides }, (_, i) => {
    const a = rotation + (i / sides) * Math.PI * 2;
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');

/**
 * Each tone's own emblem, drawn around (cx, cy) with radius r: the ten cards are told apart at a
 * glance, not only by a shade.
 */
const CARD_MOTIFS = {
  // Crown: rays all around.
  963: (cx, cy, r) =>
    Array.from({ length: 24 }, (_, i) => {
      const a = (i / 24) * Math.PI * 2;
      const inner = r * 0.35;
      const outer = r * (i % 2 ? 0.75 : 1);
      return `<line x1="${(cx + inner * Math.cos(a)).toFixed(1)}" y1="${(cy + inner * Math.sin(a)).toFixed(1)}" x2="${(cx + outer * Math.cos(a)).toFixed(1)}" y2="${(cy + outer * Math.sin(a)).toFixed(1)}"/>`;
    }).join('') + `<circle cx="${cx}" cy="${cy}" r="${r * 0.22}"/>`,
  // Insight: an almond-shaped lens with its pupil.
  852: (cx, cy, r) =>
    `<path d="M${cx - r},${cy} Q${cx},${cy - r * 1.1} ${cx + r},${cy} Q${cx},${cy + r * 1.1} ${cx - r},${cy}Z"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r * 0.32}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.12}" fill="currentColor"/>`,
  // Expression: a prism splitting a ray.
  741: (cx, cy, r) =>
    `<polygon points="${polygon(cx, cy + r * 0.1, r * 0.8, 3, -Math.PI / 2)}"/>` +
    `<line x1="${cx - r * 1.3}" y1="${cy + r * 0.25}" x2="${cx - r * 0.25}" y2="${cy + r * 0.05}"/>` +
    [-0.25, 0, 0.25]
      .map(
        (d) =>
          `<line x1="${cx + r * 0.3}" y1="${cy + r * 0.05}" x2="${cx + r * 1.3}" y2="${cy + r * (0.05 + d * 1.6)}"/>`,
      )
      .join(''),
  // Connection: two circles interlocking.
  639: (cx, cy, r) =>
    `<circle cx="${cx - r * 0.35}" cy="${cy}" r="${r * 0.62}"/><circle cx="${cx + r * 0.35}" cy="${cy}" r="${r * 0.62}"/>`,
  // Transformation: a double helix.
  528: (cx, cy, r) => {
    const strand = (phase) => {
      let d = '';
      for (let i = 0; i <= 40; i++) {
        const x = cx - r * 1.2 + (i / 40) * r * 2.4;
        const y = cy + Math.sin((i / 40) * Math.PI * 3 + phase) * r * 0.45;
        d += `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`;
      }
      return `<path d="${d}"/>`;
    };
    const rungs = Array.from({ length: 9 }, (_, i) => {
      const t = (i + 0.5) / 9;
      const x = cx - r * 1.2 + t * r * 2.4;
      const y = Math.sin(t * Math.PI * 3) * r * 0.45;
      return `<line x1="${x.toFixed(1)}" y1="${(cy + y).toFixed(1)}" x2="${x.toFixed(1)}" y2="${(cy - y).toFixed(1)}" stroke-opacity="0.5"/>`;
    }).join('');
    return strand(0) + strand(Math.PI) + rungs;
  },
  // Harmony: a spiral.
  432: (cx, cy, r) => {
    let d = '';
    for (let i = 0; i <= 120; i++) {
      const a = (i / 120) * Math.PI * 6;
      const rr = (i / 120) * r;
      d += `${i ? 'L' : 'M'}${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
    }
    return `<path d="${d}"/>`;
  },
  // Change: three currents flowing past each other.
  417: (cx, cy, r) =>
    [-0.5, 0, 0.5]
      .map((dy, k) => {
        let d = '';
        for (let i = 0; i <= 40; i++) {
          const x = cx - r * 1.3 + (i / 40) * r * 2.6;
          const y = cy + dy * r + Math.sin((i / 40) * Math.PI * 2 + k) * r * 0.18;
          d += `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`;
        }
        return `<path d="${d}"/>`;
      })
      .join(''),
  // Grounding: mountain ridges.
  396: (cx, cy, r) =>
    `<polyline points="${cx - r * 1.3},${cy + r * 0.6} ${cx - r * 0.5},${cy - r * 0.5} ${cx},${cy + r * 0.1} ${cx + r * 0.55},${cy - r * 0.8} ${cx + r * 1.3},${cy + r * 0.6}"/>` +
    `<polyline points="${cx - r * 1.3},${cy + r * 0.85} ${cx - r * 0.2},${cy + r * 0.05} ${cx + r * 0.5},${cy + r * 0.5} ${cx + r * 1.3},${cy + r * 0.05}" stroke-opacity="0.5"/>`,
  // Renewal: a small lattice of cells.
  285: (cx, cy, r) =>
    [
      [0, 0],
      [1.5, 0.87],
      [-1.5, 0.87],
      [0, 1.73],
      [1.5, -0.87],
      [-1.5, -0.87],
      [0, -1.73],
    ]
      .map(([dx, dy]) => `<polygon points="${polygon(cx + dx * r * 0.3, cy + dy * r * 0.3, r * 0.3, 6)}"/>`)
      .join(''),
  // Foundation: the sun resting on the horizon.
  174: (cx, cy, r) =>
    `<line x1="${cx - r * 1.4}" y1="${cy + r * 0.3}" x2="${cx + r * 1.4}" y2="${cy + r * 0.3}"/>` +
    [0.55, 0.8, 1.05]
      .map(
        (k, i) =>
          `<path d="M${cx - r * k},${cy + r * 0.3} A${r * k},${r * k} 0 0 1 ${cx + r * k},${cy + r * 0.3}" stroke-opacity="${1 - i * 0.3}"/>`,
      )
      .join(''),
};

function cardSvg(hz, index, size) {
  const rand = random(hz);
  // Each tone its own hue (violet for the highest, through indigo, to teal for the lowest) and its own emblem.
  const hue = 265 - index * 11;
  const top = `hsl(${hue} 55% 22%)`;
  const bottom = `hsl(${hue - 25} 60% 9%)`;
  const h = Math.round(size * 0.625);
  // More cycles for higher frequencies: the wave shows the pitch at a glance.
  const cycles = 1.5 + (hz / 963) * 5;
  const cx = size * (index % 2 ? 0.3 : 0.7);
  const cy = h * 0.4;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${h}" viewBox="0 0 ${size} ${h}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${top}"/>
      <stop offset="1" stop-color="${bottom}"/>
    </linearGradient>
    <radialGradient id="g" cx="${(cx / size).toFixed(2)}" cy="0.4" r="0.45">
      <stop offset="0" stop-color="hsl(${hue + 20} 80% 65%)" stop-opacity="0.35"/>
      <stop offset="1" stop-color="hsl(${hue + 20} 80% 65%)" stop-opacity="0"/>
    </radialGradient>
    <filter id="soft" x="-10%" y="-50%" width="120%" height="200%"><feGaussianBlur stdDeviation="3"/></filter>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <rect width="100%" height="100%" fill="url(#g)"/>
  ${stars(rand, size, h, 40, 0.6)}
  <g fill="none" stroke="#ffffff" stroke-opacity="0.85" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" color="#ffffff">
    ${CARD_MOTIFS[hz](cx, cy, h * 0.26)}
  </g>
  <path d="${wave(size, h * 0.8, h * 0.06, size / cycles, index, { second: 0 })}" fill="none" stroke="${ACCENT}" stroke-width="6" opacity="0.4" filter="url(#soft)"/>
  <path d="${wave(size, h * 0.8, h * 0.06, size / cycles, index, { second: 0 })}" fill="none" stroke="${ACCENT}" stroke-width="2.5" stroke-linecap="round"/>
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
