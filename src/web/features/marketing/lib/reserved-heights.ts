import type { CSSProperties } from 'react';

/**
 * The measured content height (px) of each home section at phone, tablet (48rem) and desktop (64rem)
 * widths (measured at 390, 768 and 1280 px), reserved before it first renders (styles.css,
 * render-when-near). Measure again when a section's content changes: e2e/rough-edges.spec.ts fails
 * until the numbers match.
 */
const RESERVED_HEIGHTS = {
  about: [1106, 570, 470],
  frequencies: [1244, 1379, 746],
  equalizer: [580, 576, 348],
  integration: [828, 576, 432],
  cta: [312, 248, 248],
  testimonials: [953, 511, 359],
  pro: [690, 586, 326],
  pricing: [1606, 1506, 638],
  newsletter: [310, 234, 190],
} as const satisfies Record<string, readonly [number, number, number]>;

export type ReservedSection = keyof typeof RESERVED_HEIGHTS;

/** The style that reserves a section's height until it renders. */
export function reservedHeight(section: ReservedSection): CSSProperties {
  const [phone, tablet, desktop] = RESERVED_HEIGHTS[section];
  return {
    '--reserve-phone': `${phone}px`,
    '--reserve-tablet': `${tablet}px`,
    '--reserve-desktop': `${desktop}px`,
  } as CSSProperties;
}
