import { startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders its (lazy) children from the first time `when` is true on, and keeps them mounted after,
 * so a modal's code is only downloaded when someone opens it.
 *
 * The first mount is a transition inside a boundary that is already shown: React waits for the code
 * and then shows the modal. Mounted at once, the boundary would show its (empty) fallback first, and
 * React holds back what replaces a fallback for 300 ms (it throttles reveals), which made a modal take
 * a third of a second longer to open than its code took to arrive
 * (docs/decisions/029-a-modals-code-comes-on-its-first-open.md).
 */
export function LazyMount({ when, children }: { when: boolean; children: ReactNode }) {
  const [mounted, setMounted] = useState(when);
  useEffect(() => {
    if (when && !mounted) startTransition(() => setMounted(true));
  }, [when, mounted]);
  return <Suspense fallback={null}>{mounted ? children : null}</Suspense>;
}
