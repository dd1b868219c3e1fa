import { Link, Outlet } from 'react-router';
import { ShieldAlert } from 'lucide-react';
import { useSession } from '@web/lib/session';
import { paths } from '@web/lib/paths';
import { PageTitle } from '@web/components/page-title';

/** Admin screens are for staff; everyone else gets a plain refusal (the API answers them 403 too). */
export function RequireStaff() {
  const session = useSession();
  if (session.user?.is_staff) return <Outlet />;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 text-center">
      <ShieldAlert aria-hidden className="h-10 w-10 text-fg-muted" />
      <PageTitle title="Staff only">Staff only</PageTitle>
      <p className="text-fg-muted">This page is for Innerwave staff. Your account does not have access to it.</p>
      <Link to={paths.subliminals} className="text-link underline">
        Back to Subliminals
      </Link>
    </section>
  );
}
