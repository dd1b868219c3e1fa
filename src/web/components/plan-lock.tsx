import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import type { SubscriptionPlan } from '@shared/constants';
import { PLAN_FEATURES, type PlanFeature } from '@shared/plans';
import { Dialog, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { Button } from '@web/components/ui/button';
import { CONTACT, PRICING_PLANS } from '@web/lib/constants';
import { clsx } from 'clsx';
import { planPaths } from '@web/lib/paths';
import { usePlan } from '@web/lib/plan';

/** A feature's name inside a sentence: "Unlimited themes" → "unlimited themes", "AI …" stays. */
const inSentence = (feature: string) =>
  /^[A-Z]{2}/.test(feature) ? feature : feature.charAt(0).toLowerCase() + feature.slice(1);

const planOf = (plan: SubscriptionPlan) => PRICING_PLANS.find((p) => p.plan === plan) ?? PRICING_PLANS[0]!;

/**
 * Stands where a feature of a higher plan would be: names the plan that includes it and, when
 * pressed, says what that plan costs and leads to the profile's Plan & billing panel with that plan
 * picked (docs/product/plans.md).
 */
export function PlanLock({
  feature,
  what,
  label = what,
  className,
}: {
  feature: PlanFeature;
  /** The feature as a person would name it, e.g. "Saving subliminals". */
  what: string;
  /** The button's text, when shorter than `what`; the plan's name follows it. */
  label?: string;
  className?: string;
}) {
  const plan = planOf(PLAN_FEATURES[feature]);
  const payable = usePlan().state?.billing.configured === true;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" className={clsx('whitespace-nowrap text-fg-muted', className)}>
          <Lock aria-hidden className="h-4 w-4" /> {`${label} `}
          <span className="rounded-full bg-fg/10 px-2 py-0.5 text-xs font-semibold">{plan.name}</span>
        </Button>
      </DialogTrigger>
      <DialogContent title={`${what} is part of the ${plan.name} plan`}>
        <p>
          {plan.name} is ${plan.pricePerMonth} a month and adds: {plan.features.map(inSentence).join(', ')}.
        </p>
        <p className="mt-3 text-fg-muted">
          {payable ? (
            'Upgrade in your profile: Stripe takes the payment, and you can cancel any time.'
          ) : (
            <>
              Payments are not set up on this server. To change your plan, write to{' '}
              <a className="text-link underline" href={`mailto:${CONTACT.supportEmail}`}>
                {CONTACT.supportEmail}
              </a>{' '}
              and we will switch it for you.
            </>
          )}
        </p>
        <div className="mt-5 flex flex-wrap items-center gap-4">
          <Button asChild size="sm">
            <Link to={planPaths.choose(plan.plan)}>{payable ? `Upgrade to ${plan.name}` : 'Plan & billing'}</Link>
          </Button>
          {/* The home page is its own document: a full load lands on its pricing section. */}
          {/* 44 px tall on a touch screen, beside the button rather than inside a line of text (decision 123). */}
          <a className="text-link underline pointer-coarse:py-2.5" href="/#pricing">
            Compare the plans
          </a>
        </div>
      </DialogContent>
    </Dialog>
  );
}
