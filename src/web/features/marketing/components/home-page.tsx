import { startTransition, useEffect, useState } from 'react';
import { About } from './about';
import { CallToAction } from './call-to-action';
import { EqualizerTeaser } from './equalizer-teaser';
import { FrequencyCards } from './frequency-cards';
import { Hero } from './hero';
import { Integration } from './integration';
import { Newsletter } from './newsletter';
import { Pricing } from './pricing';
import { ProTeaser } from './pro-teaser';
import { Testimonials } from './testimonials';

/**
 * Everything below the first screen renders right after the first paint, as an interruptible
 * transition: one long task becomes many short ones, so the page answers input sooner on slow
 * phones. Until then a tall empty block keeps the footer out of view (no layout shift).
 */
function BelowTheFold() {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  if (!ready) return <div className="min-h-[400vh]" />;
  return (
    <>
      <FrequencyCards />
      <EqualizerTeaser />
      <Integration />
      <CallToAction />
      <Testimonials />
      <ProTeaser />
      <Pricing />
      <Newsletter />
    </>
  );
}

/** The marketing home page of spec §1 and §2 'Screens: Home', top to bottom. */
export function HomePage() {
  return (
    <>
      <Hero />
      <About />
      <BelowTheFold />
    </>
  );
}
