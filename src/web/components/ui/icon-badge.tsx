import type { LucideIcon } from 'lucide-react';

const SIZES = { md: ['h-11 w-11', 'h-5 w-5'], lg: ['h-12 w-12', 'h-6 w-6'] } as const;

/** An icon on a soft accent square, beside a heading or a card's text; decorative only. */
export function IconBadge({ icon: Icon, size = 'lg' }: { icon: LucideIcon; size?: keyof typeof SIZES }) {
  const [box, glyph] = SIZES[size];
  return (
    <span aria-hidden className={`grid ${box} shrink-0 place-items-center rounded-2xl bg-accent/15 text-link`}>
      <Icon className={glyph} />
    </span>
  );
}
