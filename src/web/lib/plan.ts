import type { PlanState } from '@shared/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { planIncludes, type PlanFeature } from '@shared/plans';
import { apiRequest, fromQuery } from './api-client';
import { onPlanChangedElsewhere } from './plan-changes';

// What the person's plan includes, as the server says (GET /api/user/plan/), so no limit is written
// twice. Screens show a lock with the plan that includes a feature, never a dead button.

const PLAN_KEY = ['plan'];

export const planQuery = () =>
  queryOptions({
    queryKey: PLAN_KEY,
    // Asked again whenever its tab shows again, fresh or not: a plan paid for or changed in another tab or on
    // another device opens (or locks) here when the person comes back, instead of a lock asking them to pay again.
    refetchOnWindowFocus: 'always',
    queryFn: (context) => apiRequest<PlanState>(API.plan, fromQuery(context)),
  });

/**
 * In the signed-in frame: when another tab says the plan changed, every query is read again, as in the tab
 * that saw the payment confirmed, so what the plan opens shows here too, even in a tab side by side with it.
 * Returns the way to stop.
 */
export function followPlanChanges(queryClient: QueryClient): () => void {
  return onPlanChangedElsewhere(() => void queryClient.invalidateQueries());
}

/**
 * The plan and whether it includes a feature. Until the plan is known every feature counts as
 * included, so nothing flickers locked for a paying person; the server refuses what is not.
 */
export function usePlan() {
  const query = useQuery(planQuery());
  const plan = query.data?.plan;
  return {
    plan,
    state: query.data,
    includes: (feature: PlanFeature) => plan === undefined || planIncludes(plan, feature),
  };
}
