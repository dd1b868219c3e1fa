import { describe, it, expect } from 'vitest';
import sharp from 'sharp';
import { BRAND_ACCENT, COVER_SIZE, coverSvg, renderCover } from './cover';
import { SEED_TRACKS } from './catalog';

describe('renderCover', () => {
  it('renders a 512×512 WebP', async () => {
    const webp = await renderCover({ seed: 528, frequencyHz: 528, label: '528 Hz', name: 'Transformation' });
    expect(webp.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(webp.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const metadata = await sharp(webp).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.width).toBe(COVER_SIZE);
    expect(metadata.height).toBe(COVER_SIZE);
    expect(webp.length).toBeLessThan(150_000);
  });

  it('is a dark, night-sky image rather than a blank one', async () => {
    const webp = await renderCover({ seed: 9101, label: 'Deep Brown Noise', name: 'Brown noise' });
    const { channels } = await sharp(webp).stats();
    const [red, green, blue] = channels;
    // Mostly dark, blue/green dominant, with real variation (gradient, rings, text).
    expect(red?.mean).toBeLessThan(90);
    expect((green?.mean ?? 0) + (blue?.mean ?? 0)).toBeGreaterThan(2 * (red?.mean ?? 0));
    expect(blue?.stdev).toBeGreaterThan(8);
    expect(green?.max).toBeGreaterThan(200);
  });

  it('is deterministic for the same options', async () => {
    const options = { seed: 174, frequencyHz: 174, label: '174 Hz', name: 'Foundation' };
    expect(coverSvg(options)).toBe(coverSvg(options));
    const [first, second] = await Promise.all([renderCover(options), renderCover(options)]);
    expect(first.equals(second)).toBe(true);
  });

  it('draws only the large label: a subtitle could not be read at the size covers are shown', () => {
    const svg = coverSvg({ seed: 528, frequencyHz: 528, label: '528 Hz', name: 'Transformation' });
    expect(svg.match(/<text /g)).toHaveLength(1);
    expect(svg).not.toMatch(/transformation/i);
  });

  it('escapes text so any name is valid SVG', async () => {
    const svg = coverSvg({ seed: 1, label: 'Rain & <Thunder>', name: `"Quotes" 'too'` });
    expect(svg).toContain('Rain &#38; &#60;Thunder&#62;');
    expect(svg).not.toContain('<Thunder>');
    await expect(renderCover({ seed: 1, label: 'Rain & <Thunder>' })).resolves.toBeInstanceOf(Buffer);
  });

  it('gives every seed track a distinct cover with the brand accent and its label', () => {
    const svgs = SEED_TRACKS.map((track) => coverSvg(track.cover));
    expect(new Set(svgs).size).toBe(SEED_TRACKS.length);
    for (const [index, svg] of svgs.entries()) {
      expect(svg).toContain(BRAND_ACCENT);
      expect(svg).toContain('font-family="Inter, DejaVu Sans, sans-serif"');
      const label = SEED_TRACKS[index]?.cover.label;
      if (label) expect(svg).toContain(`>${label}<`);
    }
  });
});
