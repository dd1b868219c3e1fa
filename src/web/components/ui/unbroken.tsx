import type { ReactNode } from 'react';

/**
 * Text inside a sentence kept whole: it moves to the next line when it does not fit, and is cut only
 * when longer than a line. For an e-mail address (with the full stop after it), which a browser would
 * otherwise break at a hyphen or mid-word.
 */
export function Unbroken({ children }: { children: ReactNode }) {
  return <span className="inline-block max-w-full wrap-anywhere">{children}</span>;
}
