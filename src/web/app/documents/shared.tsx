import { useEffect } from 'react';
import type { ServedShared, SharedItem } from '@shared/contract';
import { PublicChrome } from '@web/components/layouts/public-chrome';
import { Button } from '@web/components/ui/button';
import { useSharedItem } from '@web/features/subliminals/api/shared-item';
import {
  SharedLoading,
  SharedProblem,
  SharedView,
  VisitorInvitation,
} from '@web/features/subliminals/components/shared-view';
import { useHandOverRetry } from '@web/lib/hand-over';
import { useNavigate, usePathname } from '@web/lib/link';
import { useOnline } from '@web/lib/online';
import { PAGE_NOT_ARRIVED_MESSAGE, PAGE_OFFLINE_MESSAGE } from '@web/app/page-unavailable';

/**
 * A subliminal with sound is shown by the SPA's page, which names its layers and what a free account
 * plays of them (their code needs the contract and the sound engine): this page shows its top, which
 * the SPA's page shows in the same place, and hands over in place. The server marks such a page's document, for
 * it to ask for the app's code from its first paint (render-shared.tsx).
 */
export const needsApp = (item: SharedItem) =>
  item.kind === 'subliminal' &&
  (item.sound != null || (item.private_tracks?.length ?? 0) > 0 || (item.gone_tracks?.length ?? 0) > 0);

/**
 * A share link as a signed-out visit gets it: rendered by the server with what the link shares
 * (`served`, src/web/render-shared.tsx; docs/decisions/024-the-server-fills-the-share-page.md), or
 * pre-rendered at build time while loading (prerender.tsx) and filled by shared.tsx with the item
 * the document started reading (docs/decisions/020-lean-pre-rendered-auth-pages.md).
 */
export function SharedDocument({ token, served }: { token: string; served?: ServedShared }) {
  const shared = useSharedItem(token, served);
  const navigate = useNavigate();
  const here = usePathname();
  const handOver = shared.status === 'ready' && needsApp(shared.item);
  useEffect(() => {
    if (handOver) navigate(here, { replace: true });
  }, [handOver, navigate, here]);
  return (
    <PublicChrome>
      {shared.status === 'pending' ? (
        <SharedLoading />
      ) : shared.status === 'error' ? (
        <SharedProblem error={shared.error} onRetry={shared.retry} />
      ) : handOver ? (
        <>
          <SharedView item={shared.item} framed />
          <HandOverWaits />
        </>
      ) : (
        <SharedView item={shared.item} actions={<VisitorInvitation />} />
      )}
    </PublicChrome>
  );
}

/**
 * Under the top of a page whose hand-over waits for the app's code (offline, or the connection dropped after the
 * document came): says so where the rest of the page will show, which it does by itself once the browser is back
 * online (lean-page.tsx; docs/decisions/093-a-hand-over-waits-for-the-connection.md).
 */
function HandOverWaits() {
  const retry = useHandOverRetry();
  const online = useOnline();
  if (!retry) return null;
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-start gap-3 px-4 pb-12">
      <p role="status" className="text-fg-muted">
        {online ? PAGE_NOT_ARRIVED_MESSAGE : PAGE_OFFLINE_MESSAGE}
      </p>
      <Button variant="secondary" size="sm" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * A share link's page in a signed-in visit's portal frame: the top of what the server read, or that the
 * link is gone (render-shared.tsx); loading in the build's frame, which the server fills.
 */
export function SharedFramePage({ served }: { served?: ServedShared }) {
  const shared = useSharedItem('', served);
  return shared.status === 'pending' ? (
    <SharedLoading />
  ) : shared.status === 'error' ? (
    <SharedProblem error={shared.error} onRetry={shared.retry} />
  ) : (
    <SharedView item={shared.item} framed />
  );
}
