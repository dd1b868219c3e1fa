import { Check } from 'lucide-react';
import type { PlanState } from '@shared/contract';
import { PRICING_PLANS } from '@web/lib/constants';
import { Button } from '@web/components/ui/button';
import { clsx } from 'clsx';
import { Section } from './section';
import { GetStartedLink } from './get-started-link';
import { MemberChoice } from './member-choice';

const SUMMARY: Record<(typeof PRICING_PLANS)[number]['plan'], string> = {
  basic: 'Everything you need to start a daily practice.',
  intermediate: 'More sound, more themes, and help when you need it.',
  pro: 'For a practice that is part of every day.',
};

/**
 * The three plans; each Get Started goes to signup, a paid one carrying its plan on to checkout. Once the
 * app knows a member's plan (after the first paint, which is the same for everyone), each card answers it:
 * theirs says so, one below says it is included, one above leads to Checkout, or for a subscriber to the
 * profile's Plan & billing with that plan picked, which tells them where to move in Stripe's portal.
 */
export function Pricing({ member }: { member: PlanState | undefined }) {
  return (
    <Section
      id="pricing"
      eyebrow="Pricing"
      title="Simple plans, no surprises"
      intro="Billed monthly; cancel any time. We tell you 30 days before any price changes."
    >
      <ul className="grid gap-6 lg:grid-cols-3">
        {PRICING_PLANS.map((plan) => {
          // A member's own plan stands out once it is known, not the one sold to visitors.
          const featured = member ? plan.plan === member.plan : plan.plan === 'intermediate';
          return (
            <li
              key={plan.plan}
              className={clsx(
                'flex flex-col rounded-3xl border bg-surface-raised p-8',
                featured ? 'border-accent shadow-xl shadow-accent/10' : 'border-line',
              )}
            >
              <h3 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
                {plan.name}
                {member?.plan === plan.plan ? (
                  <span className="rounded-full bg-accent/15 px-3 py-0.5 text-sm font-medium">Your plan</span>
                ) : null}
              </h3>
              {/* Two lines side by side, however long: the prices and lists below line up across the cards. */}
              <p className="mt-1 text-sm text-fg-muted lg:min-h-10">{SUMMARY[plan.plan]}</p>
              <p className="mt-6">
                <span className="text-5xl font-semibold tracking-tight">${plan.pricePerMonth}</span>
                <span className="text-fg-muted">/month</span>
              </p>
              <ul className="mt-6 flex flex-1 flex-col gap-3" aria-label={`${plan.name} includes`}>
                {plan.plan !== 'basic' ? (
                  <li className="text-sm text-fg-muted">
                    Everything in {plan.plan === 'pro' ? 'Intermediate' : 'Basic'}, plus:
                  </li>
                ) : null}
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-3">
                    <Check aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-link" />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
              {member ? (
                <MemberChoice plan={plan.plan} member={member} featured={featured} />
              ) : (
                <Button asChild variant={featured ? 'primary' : 'secondary'} className="mt-8">
                  <GetStartedLink plan={plan.plan} />
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
