import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { PageTitle } from '@web/components/page-title';
import { useOnline } from '@web/lib/online';

/** What a page's route module gives when it loads: its page. */
export type PageModule = { Component?: ComponentType | null };

/** Said when a page's code could not be fetched while the browser is offline; it loads by itself once back. */
export const PAGE_OFFLINE_MESSAGE = 'You seem to be offline. This page opens by itself once you are back online.';
/** Said when it could not be fetched while online (a dropped connection, the server restarting). */
export const PAGE_NOT_ARRIVED_MESSAGE = 'The page did not arrive. Please try again in a moment.';

/**
 * Stands where a page whose code could not be fetched would be (offline, or the connection dropped as a link
 * was followed), inside the layout it belongs to, so a portal page keeps its menu and the sound plays on. It
 * fetches the code again when the browser is back online, or on "Try again", and then shows the page; a second
 * failure while online reloads the document, as for a release whose files have new names
 * (docs/product/screens.md#errors-on-screen).
 */
export function PageUnavailable({ load }: { load: () => Promise<PageModule> }) {
  const online = useOnline();
  const [Page, setPage] = useState<ComponentType | null>(null);
  const [trying, setTrying] = useState(false);

  const tryAgain = useCallback(
    (reloadIfStillMissing: boolean) => {
      setTrying(true);
      load()
        .then(
          (module) => {
            if (module.Component) setPage(() => module.Component!);
          },
          () => {
            if (reloadIfStillMissing && navigator.onLine) window.location.reload();
          },
        )
        .finally(() => setTrying(false));
    },
    [load],
  );

  // Follows `online` rather than its own listener for the event: the store re-reads the browser's state as it
  // subscribes, so a return online between the failure and this page's first effects is not missed.
  const offlineSinceFailure = useRef(!online);
  useEffect(() => {
    if (!online) {
      offlineSinceFailure.current = true;
    } else if (offlineSinceFailure.current) {
      offlineSinceFailure.current = false;
      tryAgain(false);
    }
  }, [online, tryAgain]);

  if (Page) return <Page />;
  return (
    <PageProblem title="We could not open this page" message={online ? PAGE_NOT_ARRIVED_MESSAGE : PAGE_OFFLINE_MESSAGE}>
      <Button variant="secondary" size="sm" busy={trying} onClick={() => tryAgain(true)}>
        Try again
      </Button>
    </PageProblem>
  );
}

/**
 * What stands in a page's place when it cannot be shown, inside the layout it belongs to: a heading, the reason
 * (announced once) and the ways on (`children`). Also the route error's (route-error.tsx). Its heading is the
 * page's title, by the page's title rule (docs/product/screens.md#headings).
 */
export function PageProblem({ title, message, children }: { title: string; message: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 px-4 py-16 text-center">
      <AlertTriangle aria-hidden className="h-6 w-6 text-danger" />
      <PageTitle title={title}>{title}</PageTitle>
      <p role="alert" className="text-fg-muted">
        {message}
      </p>
      <div className="flex flex-wrap justify-center gap-3">{children}</div>
    </div>
  );
}
