import { Link } from '@web/lib/link';
import { paths } from '@web/lib/paths';

export function SiteFooter() {
  return (
    <footer className="border-t border-line">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between">
        {/* The home page is pre-rendered at build time; its year may be older than the visitor's. */}
        <p suppressHydrationWarning>© {new Date().getFullYear()} Innerwave. Calm, one breath at a time.</p>
        {/* On a touch screen each link is 44 px tall, reaching into the footer's room above and below: the footer
            keeps its height (decision 123). */}
        <nav aria-label="Legal" className="flex gap-4">
          <Link to={paths.terms} className="hover:text-fg pointer-coarse:-my-3 pointer-coarse:py-3">
            Terms and conditions
          </Link>
          <Link to={paths.privacy} className="hover:text-fg pointer-coarse:-my-3 pointer-coarse:py-3">
            Privacy policy
          </Link>
        </nav>
      </div>
    </footer>
  );
}
