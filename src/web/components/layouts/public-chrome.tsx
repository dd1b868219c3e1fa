import { lazy, useState, type ReactNode } from 'react';
import { Link, usePathname } from '@web/lib/link';
import { Menu } from 'lucide-react';
import { barLoginPath, paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { LazyMount } from '@web/components/lazy-mount';
import { ProgramsMenu } from './programs-menu';
import { Logo } from './logo';
import { ThemeToggle } from './theme-toggle';
import { SkipLink } from './skip-link';
import { SiteFooter } from './site-footer';
import { clsx } from 'clsx';
import type { Account } from '@web/lib/describe-account';
import { AccountAvatar, SHOWN_SIGNED_IN, SHOWN_SIGNED_OUT, UNKNOWN_ACCOUNT, useViewer } from '../account';
import { isolated } from '@shared/contract/plain';

const SIMPLE_LINKS = [
  { label: 'Audio Library', to: paths.portalHome },
  { label: 'Learn', to: `${paths.portalHome}#learn` },
  { label: 'Contact', to: `${paths.portalHome}#contact` },
] as const;

const linkClass = 'rounded-full px-3 py-2 text-sm font-medium text-fg-muted hover:text-fg';

// The menu's dialog code is fetched on the first open; the button is all a first visit needs.
const MobileMenuDialog = lazy(() => import('./mobile-menu-dialog'));

function MobileMenu({ loginPath }: { loginPath: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="lg:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Menu aria-hidden className="h-5 w-5" />
      </Button>
      <LazyMount when={open}>
        <MobileMenuDialog
          open={open}
          onOpenChange={setOpen}
          links={SIMPLE_LINKS}
          linkClass={linkClass}
          loginPath={loginPath}
        />
      </LazyMount>
    </>
  );
}

/**
 * "Log in" for a visitor; for someone signed in, their avatar and the way into the portal. The bar's
 * right-hand group keeps one width either way, and the pre-rendered pages (rendered for no one) hold
 * both, so a signed-in visit shows its own from the first paint (useViewer).
 */
function AccountAction({ loginPath }: { loginPath: string }) {
  const viewer = useViewer();
  const portal = (account: Account, className?: string) => (
    <Button asChild variant="secondary" size="sm" className={clsx('pl-1', className)}>
      <Link
        to={paths.subliminals}
        title={
          account.email
            ? `Signed in as ${account.name === account.email ? isolated(account.email) : `${isolated(account.name)} (${isolated(account.email)})`}`
            : undefined
        }
      >
        <AccountAvatar account={account} />
        Open the portal
      </Link>
    </Button>
  );
  const login = (className?: string) => (
    <Button asChild variant="secondary" size="sm" className={className}>
      <Link to={loginPath}>Log in</Link>
    </Button>
  );
  return (
    <div className="hidden sm:flex">
      {/* Each version keeps its place once the visit is known (see GetStartedLink): a tap during hydration counts. */}
      {viewer !== null ? portal(viewer ?? UNKNOWN_ACCOUNT, viewer === undefined ? SHOWN_SIGNED_IN : undefined) : null}
      {!viewer ? login(viewer === undefined ? SHOWN_SIGNED_OUT : undefined) : null}
    </div>
  );
}

/**
 * The public bar (docs/product/screens.md#public-bar) above the page, and the footer below it. Router-free, so the
 * home page's own entry can render it too (see lib/link).
 */
export function PublicChrome({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const loginPath = barLoginPath(pathname);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-surface md:bg-surface/85 md:backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Logo />
          <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
            <Link to={paths.home} className={linkClass} aria-current={pathname === paths.home ? 'page' : undefined}>
              Home
            </Link>
            <ProgramsMenu triggerClassName={linkClass} />
            {SIMPLE_LINKS.map((link) => (
              <Link key={link.label} to={link.to} className={linkClass}>
                {link.label}
              </Link>
            ))}
          </nav>
          <div className="flex items-center justify-end gap-1 sm:min-w-56">
            <ThemeToggle />
            <AccountAction loginPath={loginPath} />
            <MobileMenu loginPath={loginPath} />
          </div>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
