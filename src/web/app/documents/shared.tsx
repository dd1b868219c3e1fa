import { useEffect } from 'react';
import type { ServedShared, SharedItem } from '@shared/contract';
import { PublicChrome } from '@web/components/layouts/public-chrome';
import { useSharedItem } from '@web/features/subliminals/api/shared-item';
import {
  SharedLoading,
  SharedProblem,
  SharedView,
  VisitorInvitation,
} from '@web/features/subliminals/components/shared-view';
import { useNavigate, usePathname } from '@web/lib/link';

/**
 * A subliminal with sound is shown by the SPA's page, which names its layers and what a free account
 * plays of them (their code needs the contract and the sound engine): this page shows its top, which
 * the SPA's page shows in the same place, and hands over in place.
 */
const needsApp = (item: SharedItem) =>
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
        <SharedView item={shared.item} framed />
      ) : (
        <SharedView item={shared.item} actions={<VisitorInvitation />} />
      )}
    </PublicChrome>
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
