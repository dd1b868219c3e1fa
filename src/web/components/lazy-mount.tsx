import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders its (lazy) children from the first time `when` is true on, and keeps them mounted after,
 * so a modal's code is only downloaded when someone opens it.
 */
export function LazyMount({ when, children }: { when: boolean; children: ReactNode }) {
  const [mounted, setMounted] = useState(when);
  if (when && !mounted) setMounted(true);
  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
