import { useEffect, useState } from 'react';
import type { PlanState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { useViewer } from '@web/components/account';
import { apiRequest } from '@web/lib/api-client';

/**
 * The signed-in person's plan (GET /api/user/plan/) for the pre-rendered home page, which has no query client;
 * undefined for a visitor, and until it is known. A session whose access token has lapsed is renewed once; one
 * that cannot be is left to the portal to end (the home page sends nobody to login), and the plan stays unknown.
 * The home page reads it once and gives it to the sections that answer it (the Pro teaser, the pricing).
 */
export function useMemberPlan(): PlanState | undefined {
  const signedIn = Boolean(useViewer());
  const [state, setState] = useState<PlanState>();
  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    apiRequest<PlanState>(API.plan, { signal: controller.signal, onUnauthorized: 'renew' }).then(
      setState,
      () => undefined,
    );
    return () => {
      controller.abort();
      setState(undefined);
    };
  }, [signedIn]);
  return signedIn ? state : undefined;
}
