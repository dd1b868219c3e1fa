import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isRouteErrorResponse, Link, useLocation, useNavigate, useNavigation, useRouteError } from 'react-router';
import { Button } from '@web/components/ui/button';
import { keyboardToPageHeadingOnceRead } from '@web/lib/keyboard-after-removal';
import { paths } from '@web/lib/paths';
import { removePortalFrame } from '@web/lib/portal-frame';
import { PageProblem } from './page-unavailable';

export const ROUTE_ERROR_TITLE = 'We could not show this page';

function describeRouteError(error: unknown): string {
  return isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'Something went wrong while loading this page.';
}

/**
 * Shown when a portal page fails while it renders, in the page's place: the menu, the mini-player and the sound
 * stay, and Try again opens the page anew in place (the router clears a page's error when its location changes,
 * here to the same address), busy while it runs; then the keyboard goes to the heading of what took its place once
 * the page's reads have answered, the page's or, failing again, this one's (the same address is no new page, so the
 * router's hand-over to a page's heading does not run: docs/decisions/125-a-try-again-offline-says-so.md, 131); the
 * menu and Go home lead away (docs/product/screens.md#errors-on-screen).
 */
export function PageError() {
  const error = useRouteError();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const queryClient = useQueryClient();
  // A portal page's frame would hide this.
  useEffect(removePortalFrame, []);
  return (
    <PageProblem title={ROUTE_ERROR_TITLE} message={describeRouteError(error)}>
      <Button
        size="sm"
        busy={navigation.state !== 'idle'}
        onClick={(event) => {
          // The page's heading may come only with its data (a program's title): the hand-over waits for its reads.
          const handOver = keyboardToPageHeadingOnceRead(event.currentTarget, queryClient);
          void Promise.resolve(navigate(location, { replace: true, state: location.state as unknown })).then(handOver);
        }}
      >
        Try again
      </Button>
      <Button asChild size="sm" variant="secondary">
        <Link to={paths.home}>Go home</Link>
      </Button>
    </PageProblem>
  );
}

/** Shown in the whole window when what every page stands in fails (its layout): the document is loaded anew. */
export function RouteError() {
  const error = useRouteError();
  useEffect(removePortalFrame, []);
  return (
    <main className="flex min-h-dvh flex-col justify-center">
      <PageProblem title={ROUTE_ERROR_TITLE} message={describeRouteError(error)}>
        <Button size="sm" onClick={() => window.location.reload()}>
          Reload
        </Button>
        <Button asChild size="sm" variant="secondary">
          <Link to={paths.home}>Go home</Link>
        </Button>
      </PageProblem>
    </main>
  );
}
