import { Link } from '@web/lib/link';
import { paths } from '@web/lib/paths';
import { useSignedInAccount } from '@web/components/account';

/**
 * "Get Started" (to signup) for a visitor; someone signed in is not sent to sign up again but into
 * the portal. Signed out in the pre-rendered page, switched after hydration (same slot, same size).
 */
export function GetStartedLink({ plan }: { plan?: string }) {
  const account = useSignedInAccount();
  if (account) return <Link to={paths.subliminals}>Open the portal</Link>;
  return (
    <Link to={paths.signup} aria-label={plan ? `Get Started with ${plan}` : undefined}>
      Get Started
    </Link>
  );
}
