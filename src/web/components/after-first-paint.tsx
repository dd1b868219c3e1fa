import { startTransition, useEffect, useState, type ReactNode } from 'react';

/** The path a visit opened on, until its page has painted (set by the SPA's start). */
let firstPagePath: string | undefined;

export function splitFirstPage(): void {
  firstPagePath = window.location.pathname;
}

const onFirstPage = () => firstPagePath !== undefined && firstPagePath === window.location.pathname;

/**
 * What a portal page shows below its first screen. On the page a visit opens on, it is rendered after
 * the rest has been laid out and painted (a frame, then a task): one long commit and layout become two
 * shorter ones, and what the visitor sees first is not held up by what they would scroll to
 * (docs/decisions/028-the-first-page-paints-its-top-first.md). Anywhere else it renders at once.
 */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(() => !onFirstPage());
  useEffect(() => {
    if (shown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        firstPagePath = undefined;
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
