import { Link } from 'react-router';
import { PageTitle } from '@web/components/page-title';
import { Button } from '@web/components/ui/button';
import { paths } from '@web/lib/paths';

export function Component() {
  return (
    <section className="mx-auto flex max-w-4xl flex-col items-center gap-6 px-4 py-24 text-center">
      <PageTitle title="Calm, focus and intention" className="text-4xl font-semibold tracking-tight sm:text-6xl">
        Calm, focus and intention, one session at a time
      </PageTitle>
      <p className="max-w-2xl text-lg text-[var(--fg-muted)]">
        Innerwave brings together on-screen affirmations, solfeggio meditation audio and binaural beats made in your browser.
      </p>
      <div className="flex gap-3">
        <Button asChild size="lg">
          <Link to={paths.signup}>Get Started</Link>
        </Button>
        <Button asChild size="lg" variant="secondary">
          <Link to={paths.subliminals}>Try the player</Link>
        </Button>
      </div>
    </section>
  );
}
