import { Suspense } from 'react';
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
import { useMemberPlan } from '../hooks/use-member-plan';

/** The marketing home page (docs/product/screens.md#home), top to bottom. */
export function HomePage() {
  // Read once for the two sections that answer a member's plan.
  const member = useMemberPlan();
  return (
    <>
      <Hero />
      <div className="home-sky">
        <About />
        {/* A boundary of its own: React hydrates the pre-rendered page's first screen first and the
          rest after it, in short tasks, so the page answers input sooner on slow phones. */}
        <Suspense fallback={null}>
          <FrequencyCards />
          <EqualizerTeaser />
          <Integration />
          <CallToAction />
          <Testimonials />
          <ProTeaser member={member} />
          <Pricing member={member} />
          <Newsletter />
        </Suspense>
      </div>
    </>
  );
}
