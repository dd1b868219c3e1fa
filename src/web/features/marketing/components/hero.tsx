import { useState } from 'react';
import { Link } from '@web/lib/link';
import { ArrowRight, Sparkles } from 'lucide-react';
import { HOME } from '@shared/constants';
import { paths } from '@web/lib/paths';
import { useHydrated } from '@web/lib/use-hydrated';
import { Button } from '@web/components/ui/button';
import { clsx } from 'clsx';
import { HERO_IMAGES, HERO_IMAGE_SIZE } from '../art';
import { useReducedMotion } from '../hooks/use-reduced-motion';
import { useRotation } from '../hooks/use-rotation';
import { MeditatingClaim } from './meditating-claim';
import { GetStartedLink } from './get-started-link';

/**
 * The backgrounds cross-fade every HOME.heroRotationMs. The first image is the page's
 * largest paint: eager, high priority, fixed size, and the only one in the pre-rendered HTML. The
 * others mount once the app runs, one step ahead of their turn, so they never compete with it
 * (docs/decisions/033-the-home-page-fetches-its-first-screen-first.md); under reduced motion only
 * the first one ever loads.
 */
function HeroBackdrop() {
  const reducedMotion = useReducedMotion();
  const hydrated = useHydrated();
  const active = useRotation(HERO_IMAGES.length, HOME.heroRotationMs, reducedMotion);
  // Grows with the rotation and never shrinks, so images already fetched stay mounted after the wrap.
  const [reached, setReached] = useState(2);
  const wanted = Math.min(HERO_IMAGES.length, active + 2);
  if (wanted > reached) setReached(wanted);
  const mounted = reducedMotion || !hydrated ? 1 : Math.max(reached, wanted);
  return (
    <div
      aria-hidden
      className="absolute inset-0 -z-10 overflow-hidden bg-night-900"
      data-testid="hero-backdrop"
      data-active={active}
    >
      {HERO_IMAGES.slice(0, mounted).map((image, index) => (
        <img
          key={image.src}
          src={image.src}
          srcSet={image.srcSet}
          sizes="100vw"
          width={HERO_IMAGE_SIZE.width}
          height={HERO_IMAGE_SIZE.height}
          alt=""
          decoding={index === 0 ? 'sync' : 'async'}
          loading={index === 0 ? 'eager' : 'lazy'}
          fetchPriority={index === 0 ? 'high' : 'low'}
          className={clsx(
            'absolute inset-0 h-full w-full object-cover transition-opacity duration-[1500ms] ease-in-out',
            index === active ? 'opacity-100' : 'opacity-0',
          )}
        />
      ))}
      {/* Keeps the white text AA-legible over every image. */}
      <div className="absolute inset-0 bg-gradient-to-b from-night-950/55 via-night-950/35 to-night-950/75" />
    </div>
  );
}

export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate overflow-hidden text-white [--focus-ring:var(--color-accent)]"
    >
      <HeroBackdrop />
      <div className="mx-auto flex min-h-[34rem] max-w-6xl flex-col items-start justify-center gap-6 px-4 py-20 sm:min-h-[38rem] sm:py-28">
        <Link
          to={paths.subliminals}
          className="group inline-flex items-center gap-2 rounded-full border border-white/25 bg-white/10 py-1 pl-1 pr-3 text-sm text-white backdrop-blur hover:bg-white/15 pointer-coarse:py-[11px] pointer-coarse:pl-[11px] pointer-coarse:pr-4"
        >
          <span className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide text-accent-ink">
            Beta
          </span>
          <span>Try the subliminals player</span>
          <ArrowRight aria-hidden className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
        </Link>
        <h1 id="hero-title" className="max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
          Calm, focus and intention, one session at a time
        </h1>
        <p className="max-w-2xl text-lg text-white/85 sm:text-xl">
          Innerwave brings together on-screen affirmations, solfeggio meditation audio and binaural beats made in your
          browser. Quiet tools for a few mindful minutes a day.
        </p>
        <div className="flex flex-wrap gap-3">
          <Button asChild size="lg">
            <GetStartedLink />
          </Button>
          <Button asChild size="lg" variant="ghost" className="border border-white/30 text-white hover:bg-white/10">
            <Link to={paths.subliminals}>
              <Sparkles aria-hidden className="h-4 w-4" /> Start a session
            </Link>
          </Button>
        </div>
        <MeditatingClaim />
      </div>
    </section>
  );
}
