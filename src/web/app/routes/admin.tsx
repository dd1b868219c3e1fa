import { useLayoutEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { paths } from '@web/lib/paths';
import { clsx } from 'clsx';

const SECTIONS = [
  { label: 'Messages', to: paths.adminMessages },
  { label: 'Audio', to: paths.adminAudio },
  { label: 'Programs', to: paths.adminPrograms },
  { label: 'Applications', to: paths.adminApplications },
  { label: 'Users', to: paths.adminUsers },
  { label: 'Support', to: paths.adminSupport },
] as const;

/**
 * The section tabs on one line, over the rule they underline: where they do not fit (a phone) the line scrolls
 * sideways and brings the open section's tab to its middle, a tab beside it cut at the edge to say there are more
 * (decision 092).
 */
function SectionTabs() {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    const line = nav.current;
    const active = line?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!line || !active || line.scrollWidth <= line.clientWidth) return;
    line.scrollLeft = active.offsetLeft - (line.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);
  return (
    // The rule is the wrapper's border; the line overlaps it by a pixel, so the open tab's underline covers it
    // there. A focused tab's ring is drawn inside it: the scrolling line clips what is outside.
    <div className="mt-3 border-b border-line">
      <nav ref={nav} aria-label="Administration" className="relative -mb-px flex gap-1 overflow-x-auto">
        {SECTIONS.map(({ label, to }) => (
          <NavLink
            key={to}
            to={to}
            className={({ isActive }) =>
              clsx(
                'shrink-0 whitespace-nowrap border-b-2 px-4 py-2 text-sm font-medium hover:text-fg focus-visible:-outline-offset-2 pointer-coarse:py-3',
                isActive ? 'border-accent text-fg' : 'border-transparent text-fg-muted',
              )
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}

/** The admin area: one heading, a tab per section, the section below. */
export function Component() {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div>
        <p className="text-sm font-medium uppercase tracking-wider text-fg-muted">Administration</p>
        <SectionTabs />
      </div>
      <Outlet />
    </div>
  );
}
