import type { SubscriptionPlan } from '@shared/constants';
import { Link, type LinkProps } from '@web/lib/link';
import { paths, planPaths } from '@web/lib/paths';
import { PRICING_PLANS } from '@web/lib/constants';
import { clsx } from 'clsx';
import { SHOWN_SIGNED_IN, SHOWN_SIGNED_OUT, useViewer } from '@web/components/account';

/**
 * "Get Started" (to signup) for a visitor, carrying a paid plan when one was picked, so that login
 * ends at checkout for it; someone signed in goes into the portal, or to checkout for the paid plan.
 * The pre-rendered page holds both, and a signed-in visit shows its own from the first paint
 * (useViewer). The props a `<Button asChild>` passes (its classes) go on to the link.
 */
export function GetStartedLink({ plan, ...props }: { plan?: SubscriptionPlan } & Omit<LinkProps, 'to'>) {
  const viewer = useViewer();
  const name = plan ? PRICING_PLANS.find((p) => p.plan === plan)?.name : undefined;
  const paid = plan && plan !== 'basic' ? plan : null;
  const withClass = (className?: string) => ({ ...props, className: clsx(props.className, className) });
  const signedIn = (className?: string) =>
    paid ? (
      <Link {...withClass(className)} to={planPaths.checkout(paid)}>
        Choose {name}
      </Link>
    ) : (
      <Link {...withClass(className)} to={paths.subliminals}>
        Open the portal
      </Link>
    );
  const signedOut = (className?: string) => (
    <Link
      {...withClass(className)}
      to={paid ? planPaths.signup(paid) : paths.signup}
      aria-label={name ? `Get Started with ${name}` : undefined}
    >
      Get Started
    </Link>
  );
  // Each version keeps its place once the visit is known, so the link shown keeps its element: a tap on it
  // while the page hydrates is not lost to a new one.
  return (
    <>
      {viewer !== null ? signedIn(viewer === undefined ? SHOWN_SIGNED_IN : undefined) : null}
      {!viewer ? signedOut(viewer === undefined ? SHOWN_SIGNED_OUT : undefined) : null}
    </>
  );
}
