import type { SubscriptionPlan } from '@shared/constants';
import { Link, type LinkProps } from '@web/lib/link';
import { paths, planPaths } from '@web/lib/paths';
import { PRICING_PLANS } from '@web/lib/constants';
import { useSignedInAccount } from '@web/components/account';

/**
 * "Get Started" (to signup) for a visitor, carrying a paid plan when one was picked, so that login
 * ends at checkout for it; someone signed in goes into the portal, or to checkout for the paid plan.
 * Signed out in the pre-rendered page, switched after hydration (same slot, same size). The props a
 * `<Button asChild>` passes (its classes) go on to the link.
 */
export function GetStartedLink({ plan, ...props }: { plan?: SubscriptionPlan } & Omit<LinkProps, 'to'>) {
  const account = useSignedInAccount();
  const name = plan ? PRICING_PLANS.find((p) => p.plan === plan)?.name : undefined;
  const paid = plan && plan !== 'basic' ? plan : null;
  if (account) {
    return paid ? (
      <Link {...props} to={planPaths.checkout(paid)}>
        Choose {name}
      </Link>
    ) : (
      <Link {...props} to={paths.subliminals}>
        Open the portal
      </Link>
    );
  }
  return (
    <Link
      {...props}
      to={paid ? planPaths.signup(paid) : paths.signup}
      aria-label={name ? `Get Started with ${name}` : undefined}
    >
      Get Started
    </Link>
  );
}
