import { lazy, useState, type ReactNode } from 'react';
import { Link, usePathname } from '@web/lib/link';
import { Menu } from 'lucide-react';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { LazyMount } from '@web/components/lazy-mount';
import { ProgramsMenu } from './programs-menu';
import { Logo } from './logo';
import { ThemeToggle } from './theme-toggle';
import { SkipLink } from './skip-link';
import { SiteFooter } from './site-footer';
import { AccountAvatar, useSignedInAccount } from '../account';

const SIMPLE_LINKS = [
  { label: 'Audio Library', to: paths.portalHome },
  { label: 'Learn', to: `${paths.portalHome}#learn` },
  { label: 'Contact', to: `${paths.portalHome}#contact` },
] as const;

const linkClass = 'rounded-full px-3 py-2 text-sm font-medium text-fg-muted hover:text-fg';

// The menu's dialog code is fetched on the first open; the button is all a first visit needs.
const MobileMenuDialog = lazy(() => import('./mobile-menu-dialog'));

function MobileMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Menu aria-hidden className="h-5 w-5" />
      </Button>
      <LazyMount when={open}>
        <MobileMenuDialog open={open} onOpenChange={setOpen} links={SIMPLE_LINKS} linkClass={linkClass} />
      </LazyMount>
    </>
  );
}

/**
 * "Log in" for a visitor; for someone signed in, their avatar and the way into the portal. The bar's
 * right-hand group keeps one width either way, so the pre-rendered home page (always signed out)
 * does not shift when it turns into the signed-in version after hydration.
 */
function AccountAction() {
  const account = useSignedInAccount();
  return (
    <div className="hidden sm:flex">
      {account ? (
        <Button asChild variant="secondary" size="sm" className="pl-1">
          <Link
            to={paths.subliminals}
            title={`Signed in as ${account.name === account.email ? account.email : `${account.name} (${account.email})`}`}
          >
            <AccountAvatar account={account} />
            Open the portal
          </Link>
        </Button>
      ) : (
        <Button asChild variant="secondary" size="sm">
          <Link to={paths.login}>Log in</Link>
        </Button>
      )}
    </div>
  );
}

/**
 * The public bar (docs/product/screens.md#public-bar) above the page, and the footer below it. Router-free, so the
 * home page's own entry can render it too (see lib/link).
 */
export function PublicChrome({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-surface md:bg-surface/85 md:backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Logo />
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
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
            <AccountAction />
            <MobileMenu />
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
