import { LoaderCircle } from 'lucide-react';
import { clsx } from 'clsx';

/** A spinner with a name for screen readers. */
export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={clsx('inline-flex items-center justify-center', className)}>
      <LoaderCircle aria-hidden className="h-6 w-6 animate-spin text-link" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
