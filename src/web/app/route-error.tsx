import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '@web/components/ui/button';
import { paths } from '@web/lib/paths';
import { removePortalFrame } from '@web/lib/portal-frame';

/** Shown when a page fails to load (for example a chunk lost after a new release). */
export function RouteError() {
  const error = useRouteError();
  // A portal page's frame would hide this.
  useEffect(removePortalFrame, []);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'Something went wrong while loading this page.';
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-semibold">We could not show this page</h1>
      <p className="text-fg-muted">{message}</p>
      <div className="flex gap-3">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Button asChild variant="secondary">
          <Link to={paths.home}>Go home</Link>
        </Button>
      </div>
    </main>
  );
}
