import { startTransition, useEffect, useState, type ReactNode } from 'react';

/** Set by the SPA's start: the page a visit opens on paints its top before the rest is rendered. */
let firstPageSplit = false;

export function splitFirstPage(): void {
  firstPageSplit = true;
}

/**
 * What a portal page shows below its first screen. On the page a visit opens on, it is rendered after
 * the rest has been laid out and painted (a frame, then a task): one long commit and layout become two
 * shorter ones, and what the visitor sees first is not held up by what they would scroll to
 * (docs/decisions/028-the-first-page-paints-its-top-first.md). Anywhere else it renders at once.
 */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(!firstPageSplit);
  useEffect(() => {
    if (shown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        firstPageSplit = false;
        // In slices that yield to the browser, like the first render.
        startTransition(() => setShown(true));
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown]);
  return shown ? children : null;
}
