import type { PlanState } from '@shared/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { planIncludes, type PlanFeature } from '@shared/plans';
import { apiRequest } from './api-client';

// What the person's plan includes, as the server says (GET /api/user/plan/), so no limit is written
// twice. Screens show a lock with the plan that includes a feature, never a dead button.

const PLAN_KEY = ['plan'];

export const planQuery = () =>
  queryOptions({
    queryKey: PLAN_KEY,
    queryFn: ({ signal }) => apiRequest<PlanState>(API.plan, { signal }),
  });

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
