import { Link } from '@web/lib/link';
import { paths } from '@web/lib/paths';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { PROGRAM_LINKS } from './programs-menu';
import { AccountSummary, useSignedInAccount } from '../account';

/** The public bar's menu on small screens: every destination of the bar, in a modal. */
export default function MobileMenuDialog({
  open,
  onOpenChange,
  links,
  linkClass,
  loginPath,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  links: ReadonlyArray<{ label: string; to: string }>;
  linkClass: string;
  /** Where "Log in" goes: back to a share page it was opened on (lib/paths barLoginPath). */
  loginPath: string;
}) {
  const close = () => onOpenChange(false);
  const account = useSignedInAccount();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Menu" placement="top">
        <nav aria-label="Mobile" className="flex flex-col gap-1">
          <Link to={paths.home} onClick={close} className={linkClass}>
            Home
          </Link>
          <p className="px-3 pt-3 text-xs font-semibold uppercase tracking-wider text-fg-muted">Programs</p>
          {PROGRAM_LINKS.map((link) => (
            <Link key={link.label} to={link.to} onClick={close} className={`${linkClass} pl-6`}>
              {link.label}
            </Link>
          ))}
          {links.map((link) => (
            <Link key={link.label} to={link.to} onClick={close} className={linkClass}>
              {link.label}
            </Link>
          ))}
          {account ? null : (
            <Link to={loginPath} onClick={close} className={linkClass}>
              Log in
            </Link>
          )}
        </nav>
        {account ? (
          <div className="mt-2 flex flex-col gap-3 border-t border-line pt-4">
            <AccountSummary account={account} />
            <Link to={paths.subliminals} onClick={close} className="btn btn-primary btn-md">
              Open the portal
            </Link>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
