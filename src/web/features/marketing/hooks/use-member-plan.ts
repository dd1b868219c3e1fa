import { useEffect, useState } from 'react';
import type { PlanState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { useViewer } from '@web/components/account';
import { apiRequest } from '@web/lib/api-client';

/** The one ask of the page's visit, shared by the sections that read the plan (the pricing, the Pro teaser). */
let shared: { answer: Promise<PlanState>; controller: AbortController; readers: number } | null = null;

function askPlan() {
  if (!shared) {
    const controller = new AbortController();
    const answer = apiRequest<PlanState>(API.plan, { signal: controller.signal, onUnauthorized: 'renew' });
    answer.catch(() => undefined);
    shared = { answer, controller, readers: 0 };
  }
  const ask = shared;
  ask.readers += 1;
  return {
    answer: ask.answer,
    done: () => {
      ask.readers -= 1;
      if (ask.readers > 0) return;
      ask.controller.abort();
      if (shared === ask) shared = null;
    },
  };
}

/**
 * The signed-in person's plan (GET /api/user/plan/) for the pre-rendered home page, which has no query client;
 * undefined for a visitor, and until it is known. A session whose access token has lapsed is renewed once; one
 * that cannot be is left to the portal to end (the home page sends nobody to login), and the plan stays unknown.
 * The sections that read it at once ask once.
 */
export function useMemberPlan(): PlanState | undefined {
  const signedIn = Boolean(useViewer());
  const [state, setState] = useState<PlanState>();
  useEffect(() => {
    if (!signedIn) return;
    const ask = askPlan();
    let current = true;
    ask.answer.then(
      (answer) => current && setState(answer),
      () => undefined,
    );
    return () => {
      current = false;
      ask.done();
      setState(undefined);
    };
  }, [signedIn]);
  return signedIn ? state : undefined;
}
