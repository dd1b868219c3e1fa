import { NavLink, Outlet } from 'react-router';
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

/** The admin area: one heading, a tab per section, the section below. */
export function Component() {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div>
        <p className="text-sm font-medium uppercase tracking-wider text-fg-muted">Administration</p>
        <nav aria-label="Administration" className="mt-3 flex flex-wrap gap-1 border-b border-line">
          {SECTIONS.map(({ label, to }) => (
            <NavLink
              key={to}
              to={to}
              className={({ isActive }) =>
                clsx(
                  '-mb-px border-b-2 px-4 py-2 text-sm font-medium hover:text-fg pointer-coarse:py-3',
                  isActive ? 'border-accent text-fg' : 'border-transparent text-fg-muted',
                )
              }
            >
              {label}
            </NavLink>
          ))}
        </nav>
      </div>
      <Outlet />
    </div>
  );
}
