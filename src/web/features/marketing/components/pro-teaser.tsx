import { Check, Crown } from 'lucide-react';
import { PRICING_PLANS } from '@web/lib/constants';
import { Button } from '@web/components/ui/button';
import { GetStartedLink } from './get-started-link';
import { reservedHeight } from '../lib/reserved-heights';

const pro = PRICING_PLANS.find((plan) => plan.plan === 'pro');

export function ProTeaser() {
  if (!pro) return null;
  return (
    <section
      aria-labelledby="pro-title"
      style={reservedHeight('pro')}
      className="render-when-near mx-auto max-w-6xl px-4 py-12"
    >
      <div className="grid gap-8 rounded-[2rem] border border-line bg-surface-raised p-8 sm:p-12 lg:grid-cols-[1.2fr_1fr] lg:items-center">
        <div>
          <p className="inline-flex items-center gap-2 text-sm font-semibold uppercase tracking-[0.18em] text-link">
            <Crown aria-hidden className="h-4 w-4" /> Innerwave Pro
          </p>
          <h2 id="pro-title" className="mt-3 text-3xl font-semibold tracking-tight sm:text-4xl">
            Upgrade when you want more
          </h2>
          <p className="mt-4 text-lg text-fg-muted">
            Start free, or go Pro for streaming sounds and smarter suggestions at ${pro.pricePerMonth} a month. Cancel
            any time from your profile.
          </p>
          <Button asChild size="lg" className="mt-8">
            <GetStartedLink plan="pro" />
          </Button>
        </div>
        <ul className="grid gap-3">
          {pro.features.map((feature) => (
            <li key={feature} className="flex items-center gap-3 rounded-2xl bg-surface px-4 py-3">
              <Check aria-hidden className="h-5 w-5 shrink-0 text-link" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
