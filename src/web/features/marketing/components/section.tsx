import type { ReactNode } from 'react';
import { clsx } from 'clsx';
import { reservedHeight, type ReservedSection } from '../lib/reserved-heights';

/** A home page section: an eyebrow, an h2 and its content, labelled by the heading. */
export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  className,
}: {
  id: ReservedSection;
  eyebrow: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={clsx('render-when-near mx-auto max-w-6xl px-4 py-20 sm:py-24', className)}
      style={reservedHeight(id)}
    >
      <p className="text-sm font-semibold uppercase tracking-[0.18em] text-link">{eyebrow}</p>
      <h2 id={`${id}-title`} className="mt-3 max-w-3xl text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {intro ? <p className="mt-4 max-w-2xl text-lg text-fg-muted">{intro}</p> : null}
      <div className="mt-12">{children}</div>
    </section>
  );
}
