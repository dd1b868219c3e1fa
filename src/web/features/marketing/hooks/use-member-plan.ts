import { useEffect, useState } from 'react';
import type { PlanState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { useViewer } from '@web/components/account';
import { apiRequest } from '@web/lib/api-client';
import { onPlanChangedElsewhere } from '@web/lib/plan-changes';

/** How long the plan read stays good for a page hidden meanwhile: showing again later reads it again. */
export const MEMBER_PLAN_FRESH_MS = 30_000;

/**
 * The signed-in person's plan (GET /api/user/plan/) for the pre-rendered home page, which has no query client;
 * undefined for a visitor, and until it is known. A session whose access token has lapsed is renewed once; one
 * that cannot be is left to the portal to end (the home page sends nobody to login), and the plan stays unknown.
 * The home page reads it and gives it to the sections that answer it (the Pro teaser, the pricing). It is read
 * again when another tab says the plan changed, and when the page shows again after MEMBER_PLAN_FRESH_MS hidden;
 * the answer before stays shown meanwhile (docs/decisions/127-billing-news-late-and-out-of-order.md).
 */
export function useMemberPlan(): PlanState | undefined {
  const signedIn = Boolean(useViewer());
  const [state, setState] = useState<PlanState>();
  useEffect(() => {
    if (!signedIn) return;
    let controller: AbortController | undefined;
    let readAt = 0;
    const read = () => {
      controller?.abort();
      controller = new AbortController();
      readAt = Date.now();
      apiRequest<PlanState>(API.plan, { signal: controller.signal, onUnauthorized: 'renew' }).then(
        setState,
        () => undefined,
      );
    };
    const onShown = () => {
      if (document.visibilityState === 'visible' && Date.now() - readAt >= MEMBER_PLAN_FRESH_MS) read();
    };
    read();
    const stopFollowing = onPlanChangedElsewhere(read);
    document.addEventListener('visibilitychange', onShown);
    return () => {
      stopFollowing();
      document.removeEventListener('visibilitychange', onShown);
      controller?.abort();
      setState(undefined);
    };
  }, [signedIn]);
  return signedIn ? state : undefined;
}
