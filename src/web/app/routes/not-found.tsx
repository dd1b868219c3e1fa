import { Link } from 'react-router';
import { House } from 'lucide-react';
import { PageTitle } from '@web/components/page-title';
import { Button } from '@web/components/ui/button';
import { paths } from '@web/lib/paths';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12 in-portal:p-0">
      <PageTitle title="Page not found">Page not found</PageTitle>
      <p className="text-fg-muted">
        The page you asked for does not exist. Check the address, or go back to the home page.
      </p>
      <Button asChild className="self-start">
        <Link to={paths.home}>
          <House aria-hidden className="h-4 w-4" /> Go to the home page
        </Link>
      </Button>
    </section>
  );
}
