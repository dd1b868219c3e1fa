import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import type { PlanState } from '@shared/contract';
import { subscriptionEnded } from '@shared/contract/plain';
import { planName } from '@shared/plans';
import { Link } from '@web/lib/link';
import { paths, planPaths } from '@web/lib/paths';
import { Button, type ButtonSize } from '@web/components/ui/button';

const rank = (plan: SubscriptionPlan) => SUBSCRIPTION_PLANS.indexOf(plan);

/**
 * A plan's way on for a member whose plan is known (the pricing's cards, the Pro teaser): their own opens the
 * portal, one below is included, with no button, and one above leads to Checkout, or for a subscriber to the
 * profile's Plan & billing with that plan picked (docs/decisions/115-the-billing-roads-open-ends.md).
 */
export function MemberChoice({
  plan,
  member,
  featured,
  size,
}: {
  plan: SubscriptionPlan;
  member: PlanState;
  featured: boolean;
  size?: ButtonSize;
}) {
  if (rank(plan) < rank(member.plan))
    return (
      <p className="mt-8 flex min-h-11 items-center justify-center text-center text-sm text-fg-muted">
        Included in your {planName(member.plan)} plan
      </p>
    );
  const variant = featured ? 'primary' : 'secondary';
  if (plan === member.plan)
    return (
      <Button asChild variant={variant} size={size} className="mt-8">
        <Link to={paths.subliminals}>Open the portal</Link>
      </Button>
    );
  // A subscription Stripe still bills changes in its portal, never through a second Checkout (decision 112).
  const subscribed = member.billing.status !== null && !subscriptionEnded(member.billing.status);
  return (
    <Button asChild variant={variant} size={size} className="mt-8">
      <Link to={subscribed ? planPaths.choose(plan) : planPaths.checkout(plan)}>Choose {planName(plan)}</Link>
    </Button>
  );
}
