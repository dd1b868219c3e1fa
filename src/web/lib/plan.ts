import type { PlanState } from '@shared/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { PLAN_FEATURES, planIncludes, type PlanFeature } from '@shared/plans';
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
 * The plan and what it includes, two ways (docs/decisions/124-what-a-screen-says-of-a-plan-and-why-it-recommends.md):
 * - `has(feature)`: true or false once the plan is read, `undefined` while it is not known (being read, or its read
 *   failed). For whatever says or offers something of the plan: a control the server checks, a line about the plan, a
 *   lock. While it is unknown such a screen shows neither the feature nor its lock, so it neither claims what the plan
 *   may not have nor asks a paying person to pay again; a failed read is shown where the screen says so (`read`,
 *   `PlanReadFailed`). A feature of the lowest plan (own messages) is every member's: true without a read (decision 132).
 * - `includes(feature)`: the same, but `true` while the plan is unknown. Only for how sound plays (layers, a saved or
 *   shared sound), which the server never checks: a paying person's sound is not cut back while the plan is read.
 */
export function usePlan() {
  const read = useQuery(planQuery());
  const plan = read.data?.plan;
  const has = (feature: PlanFeature) =>
    plan !== undefined ? planIncludes(plan, feature) : PLAN_FEATURES[feature] === 'basic' ? true : undefined;
  return {
    plan,
    state: read.data,
    read,
    has,
    includes: (feature: PlanFeature) => has(feature) ?? true,
  };
}
