import { useEffect, useRef } from 'react';

/** One slow drift takes this long (ms); the blobs differ so the picture never repeats visibly. */
const DRIFT_MS = 40_000;

const BLOBS = [
  { left: '-15%', top: '-20%', size: '70vmax', opacity: 0.16 },
  { left: '45%', top: '35%', size: '60vmax', opacity: 0.11 },
  { left: '5%', top: '55%', size: '45vmax', opacity: 0.08 },
] as const;

/**
 * The session screen's calm background (docs/product/screens.md#session-screen): the theme's colour
 * with a few soft glows of the message colour drifting over minutes. Only `transform` animates (the
 * compositor moves the layers, no repaint, no JavaScript per frame); under reduced motion it is still.
 */
export function SessionBackground({ background, tint }: { background: string; tint: string }) {
  const layer = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = layer.current;
    if (!element || typeof element.animate !== 'function') return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const animations = [...element.children].map((blob, index) =>
      blob.animate(
        [{ transform: 'translate3d(-8%, -6%, 0) scale(1)' }, { transform: 'translate3d(10%, 8%, 0) scale(1.2)' }],
        {
          duration: DRIFT_MS + index * 11_000,
          delay: -index * 9_000,
          direction: 'alternate',
          iterations: Infinity,
          easing: 'ease-in-out',
        },
      ),
    );
    return () => animations.forEach((animation) => animation.cancel());
  }, []);

  return (
    <div
      ref={layer}
      aria-hidden
      data-testid="session-background"
      className="pointer-events-none absolute inset-0 overflow-hidden"
      style={{ background }}
    >
      {BLOBS.map((blob) => (
        <div
          key={blob.left}
          className="absolute rounded-full will-change-transform"
          style={{
            left: blob.left,
            top: blob.top,
            width: blob.size,
            height: blob.size,
            opacity: blob.opacity,
            background: `radial-gradient(circle closest-side, ${tint}, transparent)`,
          }}
        />
      ))}
    </div>
  );
}
