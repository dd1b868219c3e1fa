import { Link } from '@web/lib/link';
import { ArrowRight } from 'lucide-react';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { GetStartedLink } from './get-started-link';
import { reservedHeight } from '../lib/reserved-heights';

/** Calls to action go to the subliminals player. */
export function CallToAction() {
  return (
    <section
      aria-labelledby="cta-title"
      style={reservedHeight('cta')}
      className="render-when-near mx-auto max-w-6xl px-4 py-20 text-center sm:py-24"
    >
      <h2 id="cta-title" className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight text-balance sm:text-5xl">
        Take a few minutes for yourself today
      </h2>
      <p className="mx-auto mt-4 max-w-xl text-lg text-fg-muted">
        Build a playlist of affirmations, choose a tone and begin. Your first session takes less than a minute to set
        up.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild size="lg">
          <Link to={paths.subliminals}>
            Open the subliminals player <ArrowRight aria-hidden className="h-5 w-5" />
          </Link>
        </Button>
        <Button asChild size="lg" variant="secondary">
          <GetStartedLink />
        </Button>
      </div>
    </section>
  );
}
