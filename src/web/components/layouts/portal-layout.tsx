import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import {
  AppWindow,
  AudioLines,
  CalendarDays,
  House,
  LayoutGrid,
  LifeBuoy,
  LineChart,
  LogOut,
  Menu,
  ShieldCheck,
  Sparkles,
  UserRound,
} from 'lucide-react';
import { paths } from '@web/lib/paths';
import { FRAME_ACCOUNT_EMAIL_ATTRIBUTE, removePortalFrame } from '@web/lib/portal-frame';
import { usePortalShown } from '@web/lib/portal-presence';
import { useStopGoneTracks } from '@web/lib/audio/use-stop-gone-tracks';
import { useSession } from '@web/lib/session';
import { clsx } from 'clsx';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@web/components/ui/dropdown-menu';
import { MiniPlayer } from '../mini-player';
import { Logo } from './logo';
import { ThemeToggle } from './theme-toggle';
import { SkipLink } from './skip-link';
import { AccountAvatar, AccountSummary, UNKNOWN_ACCOUNT, useSignedInAccount } from '../account';

// The portal home leads: the hub the sidebar's pages branch from, one press away on every page (decision 086).
const SIDEBAR_LINKS = [
  { label: 'Portal home', to: paths.portalHome, icon: LayoutGrid },
  { label: 'Subliminals', to: paths.subliminals, icon: Sparkles },
  { label: 'Meditations', to: paths.music, icon: AudioLines },
  { label: 'Programs', to: paths.programs, icon: CalendarDays },
  { label: 'Your practice', to: paths.practice, icon: LineChart },
  { label: 'Applications', to: paths.applications, icon: AppWindow },
  { label: 'Profile', to: paths.profile, icon: UserRound },
  { label: 'Support', to: paths.support, icon: LifeBuoy },
  { label: 'Admin', to: paths.admin, icon: ShieldCheck, staffOnly: true },
  { label: 'Sign Out', to: paths.logout, icon: LogOut },
  { label: 'Back to the site', to: paths.home, icon: House, separated: true },
] as const;

function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const isStaff = useSession().user?.is_staff ?? false;
  const links = SIDEBAR_LINKS.filter((link) => isStaff || !('staffOnly' in link));
  return (
    <nav aria-label="Portal" className="flex flex-col gap-1">
      {links.map(({ label, to, icon: Icon, ...link }) => (
        <Fragment key={label}>
          {/* A rule of its own: drawn on the link's rounded box, its ends curved up. */}
          {'separated' in link ? <hr className="mx-3 my-2 border-line" /> : null}
          <NavLink
            to={to}
            end={to === paths.home}
            onClick={onNavigate}
            className={({ isActive }) =>
              clsx(
                'flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium hover:bg-black/5 hover:text-fg pointer-coarse:py-3 dark:hover:bg-white/10',
                isActive ? 'bg-accent/15 text-fg' : 'text-fg-muted',
              )
            }
          >
            <Icon aria-hidden className="h-5 w-5" />
            {label}
          </NavLink>
        </Fragment>
      ))}
    </nav>
  );
}

function UserMenu() {
  const account = useSignedInAccount();
  const email = account?.email || 'Account';
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* The name starts with the text the button shows (WCAG 2.5.3), so "click the e-mail" works by voice. */}
        <Button
          variant="secondary"
          size="sm"
          aria-label={`${email}, account menu`}
          className="min-w-0 max-w-56 pl-1 pr-1 sm:pr-4"
        >
          {/* Without an account (the pre-rendered frame) the badge is there, its initials not yet. */}
          <AccountAvatar account={account ?? UNKNOWN_ACCOUNT} />
          <span className="hidden truncate sm:inline" {...(account ? {} : { [FRAME_ACCOUNT_EMAIL_ATTRIBUTE]: '' })}>
            {email}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {/* As wide as the screen allows, so an address reads on one line when it can (docs/product/screens.md). */}
        <DropdownMenuLabel className="max-w-[min(24rem,calc(100vw-2rem))] px-3 py-2 font-normal">
          {account ? <AccountSummary account={account} /> : email}
        </DropdownMenuLabel>
        <DropdownMenuItem asChild>
          <Link to={paths.music}>Meditations</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.subliminals}>Subliminals</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.home}>Back to the site</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.logout}>Sign out</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Stops a track that is no longer there, on whichever portal page it plays (lib/audio/use-stop-gone-tracks.ts). */
function StopGoneTracks() {
  useStopGoneTracks();
  return null;
}

/**
 * The authenticated bar with its sidebar, and the mini-player under every page (docs/product/screens.md#portal-bar);
 * a running session screen in its corner goes on over it (components/floating-session.tsx, shown by the router).
 * `notice`: a note above every page (the onboarding's invitation), composed by the app. While
 * `noticeSettling` (whether there is one is not known yet), the page is laid out but not shown, so a
 * note that arrives does not push it down; a pre-rendered frame of the page shows meanwhile, and goes
 * when the page shows. `page`: what the build pre-renders in that frame, in place of the route's page.
 */
export function PortalLayout({
  notice,
  noticeSettling = false,
  page,
}: { notice?: ReactNode; noticeSettling?: boolean; page?: ReactNode } = {}) {
  const [menuOpen, setMenuOpen] = useState(false);
  // What lives with the portal (the sound, a session in its corner) goes on while a layout shows.
  usePortalShown(!page);
  useEffect(() => {
    if (!noticeSettling) removePortalFrame();
  }, [noticeSettling]);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-surface md:bg-surface/85 md:backdrop-blur">
        <div className="flex h-16 items-center justify-between gap-3 px-4">
          <div className="flex items-center gap-2">
            <Dialog open={menuOpen} onOpenChange={setMenuOpen}>
              <DialogTrigger asChild>
                <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu">
                  <Menu aria-hidden className="h-5 w-5" />
                </Button>
              </DialogTrigger>
              <DialogContent title="Menu" placement="top">
                <SidebarNav onNavigate={() => setMenuOpen(false)} />
              </DialogContent>
            </Dialog>
            <Logo />
          </div>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <UserMenu />
          </div>
        </div>
      </header>
      <div className="flex flex-1">
        {/* As tall as the room between the bar and the mini-player, which ends this row: any taller, and the page's
            end pushed the menu's top under the bar. A short window scrolls the menu within (decision 092). */}
        <aside className="sticky top-16 hidden h-[calc(100dvh-4rem-var(--portal-mini-player,0px))] w-60 shrink-0 overflow-y-auto overscroll-contain border-r border-line p-4 lg:block">
          <SidebarNav />
        </aside>
        {/* Every page's inset, given here once; `portal-main` lets the open pages drop theirs (styles.css).
            Below, room for a session in its corner too, so the page's end scrolls clear of it (lib/bottom-chrome.ts). */}
        <main
          id="main"
          className="portal-main min-w-0 flex-1 px-4 pb-[calc(3rem+var(--portal-corner-space,0px))] pt-12 sm:px-8"
        >
          {notice}
          <div className={noticeSettling ? 'invisible contents' : 'contents'} aria-busy={noticeSettling || undefined}>
            {page ?? <Outlet />}
          </div>
        </main>
      </div>
      {page ? null : (
        <>
          <MiniPlayer />
          <StopGoneTracks />
        </>
      )}
    </div>
  );
}
