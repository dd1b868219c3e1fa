import { lazy, useState, type FormEvent } from 'react';
import { Mail } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { LazyMount } from '@web/components/lazy-mount';
import { reservedHeight } from '../lib/reserved-heights';

const UnderDevelopmentDialog = lazy(() => import('./under-development-dialog'));

/**
 * The newsletter box (docs/product/screens.md#home): the e-mail is required, so the browser checks it first;
 * a valid address then opens the under-development modal. Nothing is sent or stored.
 */
export function Newsletter() {
  const [open, setOpen] = useState(false);
  const join = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOpen(true);
  };
  return (
    <section
      aria-labelledby="newsletter-title"
      style={reservedHeight('newsletter')}
      className="render-when-near mx-auto max-w-6xl px-4 py-12"
    >
      <div className="flex flex-col gap-6 rounded-[2rem] border border-line bg-surface-raised p-8 sm:p-12 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-xl">
          <h2 id="newsletter-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            A calm letter, once a month
          </h2>
          <p className="mt-2 text-fg-muted">New tones, new affirmation sets and what we are building next. No spam.</p>
        </div>
        <form onSubmit={join} className="flex w-full flex-col gap-3 sm:flex-row lg:max-w-md">
          <label htmlFor="newsletter-email" className="sr-only">
            E-mail address
          </label>
          <div className="relative flex-1">
            <Mail
              aria-hidden
              className="pointer-events-none absolute left-4 top-1/2 h-5 w-5 -translate-y-1/2 text-fg-muted"
            />
            <Input
              id="newsletter-email"
              name="email"
              type="email"
              required
              autoComplete="email"
              placeholder="you@example.com"
              className="pl-11"
            />
          </div>
          <Button type="submit" aria-haspopup="dialog">
            Join
          </Button>
        </form>
      </div>
      <LazyMount when={open}>
        <UnderDevelopmentDialog
          open={open}
          onOpenChange={setOpen}
          feature="The newsletter"
          note="Your e-mail address was not sent or stored. Please try again later."
        />
      </LazyMount>
    </section>
  );
}
