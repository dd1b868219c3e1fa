import { useEffect, useState } from 'react';
import type { PlanState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { useViewer } from '@web/components/account';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { sessionStore } from '@web/lib/session';

/**
 * The signed-in person's plan (GET /api/user/plan/) for the pre-rendered home page, which has no query client;
 * undefined for a visitor, and until it is known. A session whose access token has lapsed is renewed once; one
 * that cannot be is left to the portal to end (the home page sends nobody to login), and the plan stays unknown.
 */
export function useMemberPlan(): PlanState | undefined {
  const signedIn = Boolean(useViewer());
  const [state, setState] = useState<PlanState>();
  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    readPlan(controller.signal).then(setState, () => undefined);
    return () => {
      controller.abort();
      setState(undefined);
    };
  }, [signedIn]);
  return signedIn ? state : undefined;
}

async function readPlan(signal: AbortSignal): Promise<PlanState> {
  const read = () => apiRequest<PlanState>(API.plan, { signal, onUnauthorized: 'throw' });
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    const { refreshAccessToken } = await import('@web/lib/session-refresh');
    if ((await refreshAccessToken(sessionStore.get().refresh)) !== 'refreshed') throw error;
    return read();
  }
}
