import type { CSSProperties } from 'react';

/**
 * The measured content height (px) of each home section at phone, tablet (48rem) and desktop (64rem)
 * widths, reserved before it first renders (styles.css, render-when-near). Measure again when a
 * section's content changes.
 */
const RESERVED_HEIGHTS = {
  about: [1106, 570, 470],
  frequencies: [1244, 1379, 746],
  equalizer: [580, 576, 348],
  integration: [828, 576, 432],
  cta: [288, 248, 248],
  testimonials: [953, 511, 359],
  pro: [634, 530, 326],
  pricing: [1450, 1350, 586],
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
