import { Check, Crown } from 'lucide-react';
import type { PlanState } from '@shared/contract';
import { PRICING_PLANS } from '@web/lib/constants';
import { Button } from '@web/components/ui/button';
import { GetStartedLink } from './get-started-link';
import { MemberChoice } from './member-choice';
import { reservedHeight } from '../lib/reserved-heights';

const pro = PRICING_PLANS.find((plan) => plan.plan === 'pro');

/**
 * Pro's features and its way in. Once the app knows a member's plan (after the first paint, the same for everyone)
 * it answers it as the pricing's Pro card does: "Choose Pro" below Pro, and to a Pro member their plan, with no
 * offer to upgrade to it (docs/decisions/120-what-guidance-and-the-home-page-promise.md).
 */
export function ProTeaser({ member }: { member: PlanState | undefined }) {
  if (!pro) return null;
  const theirs = member?.plan === 'pro';
  return (
    <section
      aria-labelledby="pro-title"
      style={reservedHeight('pro')}
      className="render-when-near mx-auto max-w-6xl px-4 py-12"
    >
      <div className="grid gap-8 rounded-[2rem] border border-line bg-surface-raised p-8 sm:p-12 lg:grid-cols-[1.2fr_1fr] lg:items-center">
        <div>
          <p className="inline-flex flex-wrap items-center gap-2 text-sm font-semibold uppercase tracking-[0.18em] text-link">
            <Crown aria-hidden className="h-4 w-4" /> Innerwave Pro
            {theirs ? (
              <span className="rounded-full bg-accent/15 px-3 py-0.5 font-medium normal-case tracking-normal text-fg">
                Your plan
              </span>
            ) : null}
          </p>
          <h2 id="pro-title" className="mt-3 text-3xl font-semibold tracking-tight sm:text-4xl">
            {theirs ? 'Everything Innerwave has is yours' : 'Upgrade when you want more'}
          </h2>
          <p className="mt-4 text-lg text-fg-muted">
            {theirs
              ? 'Your plan holds everything in Basic and Intermediate, and what Pro adds.'
              : `Start free, or go Pro for streaming sounds and smarter suggestions at $${pro.pricePerMonth} a month. Cancel any time from your profile.`}
          </p>
          {member ? (
            <MemberChoice plan="pro" member={member} featured size="lg" />
          ) : (
            <Button asChild size="lg" className="mt-8">
              <GetStartedLink plan="pro" />
            </Button>
          )}
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
