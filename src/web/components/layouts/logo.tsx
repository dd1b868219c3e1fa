import { clsx } from 'clsx';
import { Link } from '@web/lib/link';
import { paths } from '@web/lib/paths';
import { SHOWN_SIGNED_IN, SHOWN_SIGNED_OUT, useViewer } from '../account';

/**
 * The logo leads home: someone signed in to the portal home, a visitor to the site's home, whichever bar it is in
 * (decision 092). A pre-rendered page holds both, and the visit's shows from the first paint (useViewer); each keeps
 * its element once the visit is known, so a tap during hydration counts.
 */
export function Logo() {
  const viewer = useViewer();
  return (
    <>
      {viewer !== null ? (
        <LogoLink
          to={paths.portalHome}
          gradient="logo-g-in"
          className={viewer === undefined ? SHOWN_SIGNED_IN : undefined}
        />
      ) : null}
      {!viewer ? (
        <LogoLink
          to={paths.home}
          gradient="logo-g-out"
          className={viewer === undefined ? SHOWN_SIGNED_OUT : undefined}
        />
      ) : null}
    </>
  );
}

/**
 * `gradient`: its fill's id, one for each version: the hidden one's would be found first in a pre-rendered page, and a
 * gradient in a hidden drawing paints nothing.
 */
function LogoLink({ to, gradient, className }: { to: string; gradient: string; className: string | undefined }) {
  return (
    <Link
      to={to}
      className={clsx('flex min-h-11 items-center gap-2 text-lg font-semibold tracking-tight', className)}
      aria-label="Innerwave home"
    >
      <svg aria-hidden viewBox="0 0 64 64" className="h-8 w-8">
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#312e81" />
            <stop offset="1" stopColor="#0f766e" />
          </linearGradient>
        </defs>
        <rect width="64" height="64" rx="16" fill={`url(#${gradient})`} />
        <path
          d="M10 34c6 0 6-10 12-10s6 16 12 16 6-22 12-22 6 16 8 16"
          fill="none"
          stroke="#00DC82"
          strokeWidth="5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>Innerwave</span>
    </Link>
  );
}
