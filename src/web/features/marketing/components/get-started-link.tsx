import type { SubscriptionPlan } from '@shared/constants';
import { Link } from '@web/lib/link';
import { paths, planPaths } from '@web/lib/paths';
import { PRICING_PLANS } from '@web/lib/constants';
import { useSignedInAccount } from '@web/components/account';

/**
 * "Get Started" (to signup) for a visitor, carrying a paid plan when one was picked, so that login
 * ends at checkout for it; someone signed in goes into the portal, or to checkout for the paid plan.
 * Signed out in the pre-rendered page, switched after hydration (same slot, same size).
 */
export function GetStartedLink({ plan }: { plan?: SubscriptionPlan }) {
  const account = useSignedInAccount();
  const name = plan ? PRICING_PLANS.find((p) => p.plan === plan)?.name : undefined;
  const paid = plan && plan !== 'basic' ? plan : null;
  if (account) {
    return paid ? (
      <Link to={planPaths.checkout(paid)}>Choose {name}</Link>
    ) : (
      <Link to={paths.subliminals}>Open the portal</Link>
    );
  }
  return (
    <Link to={paid ? planPaths.signup(paid) : paths.signup} aria-label={name ? `Get Started with ${name}` : undefined}>
      Get Started
    </Link>
  );
}
