// The home page's generated art (scripts/generate-art.mjs). Vite fingerprints each file for long caching.
import hero1Small from '@web/assets/art/hero-1-800.webp';
import hero1Large from '@web/assets/art/hero-1-1600.webp';
import hero2Small from '@web/assets/art/hero-2-800.webp';
import hero2Large from '@web/assets/art/hero-2-1600.webp';
import hero3Small from '@web/assets/art/hero-3-800.webp';
import hero3Large from '@web/assets/art/hero-3-1600.webp';
import hero4Small from '@web/assets/art/hero-4-800.webp';
import hero4Large from '@web/assets/art/hero-4-1600.webp';

export interface HeroImage {
  src: string;
  srcSet: string;
}

const hero = (small: string, large: string): HeroImage => ({ src: small, srcSet: `${small} 800w, ${large} 1600w` });

export const HERO_IMAGES: readonly HeroImage[] = [
  hero(hero1Small, hero1Large),
  hero(hero2Small, hero2Large),
  hero(hero3Small, hero3Large),
  hero(hero4Small, hero4Large),
];
export const HERO_IMAGE_SIZE = { width: 1600, height: 900 } as const;

const cards = import.meta.glob<string>('@web/assets/art/card-*.webp', {
  eager: true,
  import: 'default',
  query: '?url',
});

/** The card image of a frequency, e.g. 528 → …/card-528-[hash].webp. */
export function cardImage(hz: number): string {
  const entry = Object.entries(cards).find(([file]) => file.endsWith(`/card-${hz}.webp`));
  if (!entry) throw new Error(`no card art for ${hz} Hz`);
  return entry[1];
}
export const CARD_IMAGE_SIZE = { width: 480, height: 300 } as const;
