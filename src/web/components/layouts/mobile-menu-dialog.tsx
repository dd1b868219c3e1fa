import { Link } from '@web/lib/link';
import { paths } from '@web/lib/paths';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { PROGRAM_LINKS } from './programs-menu';

/** The public bar's menu on small screens: every destination of the bar, in a modal. */
export default function MobileMenuDialog({
  open,
  onOpenChange,
  links,
  linkClass,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  links: ReadonlyArray<{ label: string; to: string }>;
  linkClass: string;
}) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Menu" className="top-4 translate-y-0">
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
          <Link to={paths.login} onClick={close} className={linkClass}>
            Log in
          </Link>
        </nav>
      </DialogContent>
    </Dialog>
  );
}
