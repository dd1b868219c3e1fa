import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from './constants';

// What each plan unlocks (docs/product/plans.md): the server enforces it, the web shows it.

/** Each feature and the lowest plan that includes it; a higher plan includes what a lower one does. */
export const PLAN_FEATURES = {
  ownMessages: 'basic',
  cloudPlayer: 'basic',
  allThemes: 'intermediate',
  soundLayers: 'intermediate',
  savedSubliminals: 'intermediate',
  shareSubliminals: 'intermediate',
  prioritySupport: 'intermediate',
  spokenSubliminals: 'pro',
  recommendations: 'pro',
  exportMessages: 'pro',
  shareMessages: 'pro',
  ownMusic: 'pro',
  audioExport: 'pro',
} as const satisfies Record<string, SubscriptionPlan>;
export type PlanFeature = keyof typeof PLAN_FEATURES;

/**
 * A plan named for people, as the spec and the pricing table write it ("The Intermediate plan keeps more."); the
 * contract's `required_plan` and the database keep the machine's lower case (decisions.md §8).
 */
export const PLAN_NAMES = {
  basic: 'Basic',
  intermediate: 'Intermediate',
  pro: 'Pro',
} as const satisfies Record<SubscriptionPlan, string>;
export const planName = (plan: SubscriptionPlan): string => PLAN_NAMES[plan];

/**
 * Decisions §8 gives the paid plans "any number" of saved subliminals: one fair-use cap for both, far
 * past what anyone saves by hand, so the list (served whole) stays one quick call (docs/product/plans.md#limits).
 */
const SAVED_SUBLIMINALS_FAIR_USE = 2_000;

/**
 * How much of one's own content each plan keeps (docs/product/plans.md#limits). Basic's 200 messages
 * are decisions §8's; categories only hold messages, so a plan keeps as many categories as messages,
 * up to 500: more than anyone sorts by hand, and a reorder (a write per category) stays quick.
 */
export const PLAN_LIMITS = {
  basic: { ownCategories: 200, ownMessages: 200, savedSubliminals: 0 },
  intermediate: { ownCategories: 500, ownMessages: 2_000, savedSubliminals: SAVED_SUBLIMINALS_FAIR_USE },
  pro: { ownCategories: 500, ownMessages: 10_000, savedSubliminals: SAVED_SUBLIMINALS_FAIR_USE },
} as const satisfies Record<SubscriptionPlan, Record<string, number>>;
export type PlanLimit = keyof (typeof PLAN_LIMITS)['basic'];

const rank = (plan: SubscriptionPlan) => SUBSCRIPTION_PLANS.indexOf(plan);

/** Whether `plan` is `required` or higher. */
export const planCovers = (plan: SubscriptionPlan, required: SubscriptionPlan) => rank(plan) >= rank(required);

export const planIncludes = (plan: SubscriptionPlan, feature: PlanFeature) => planCovers(plan, PLAN_FEATURES[feature]);

/** The next plan whose limit is higher than this plan's, if any. */
export function planRaising(plan: SubscriptionPlan, limit: PlanLimit): SubscriptionPlan | undefined {
  return SUBSCRIPTION_PLANS.find(
    (other) => rank(other) > rank(plan) && PLAN_LIMITS[other][limit] > PLAN_LIMITS[plan][limit],
  );
}
