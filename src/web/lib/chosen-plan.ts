import { PAID_PLANS, type PaidPlan } from '@shared/contract/plain';
import { browserStorage } from './browser-storage';

// The paid plan a visitor picked on the pricing table, carried through sign-up, activation and login
// into checkout (docs/product/screens.md#choosing-a-plan). It travels in the URL (`?plan=pro`) where
// it can, and waits on the device for the activation link, which opens in a tab of its own.

const STORAGE_KEY = 'innerwave.chosenPlan';
/** A choice older than this is forgotten: the next person on a shared device is not sent to checkout. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/** A paid plan named in a query value, or null (Basic, unknown, missing). */
export function paidPlanOf(value: string | null | undefined): PaidPlan | null {
  const plan = value?.trim().toLowerCase();
  return PAID_PLANS.find((paid) => paid === plan) ?? null;
}

export const chosenPlan = {
  remember(plan: PaidPlan, now = Date.now()) {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ plan, at: now }));
    } catch {
      // Storage full or refused: the URL still carries the plan as far as it goes.
    }
  },
  read(now = Date.now()): PaidPlan | null {
    try {
      const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { plan?: string; at?: number } | null;
      if (!stored || typeof stored.at !== 'number' || now - stored.at > KEEP_MS || stored.at > now) return null;
      return paidPlanOf(stored.plan);
    } catch {
      return null;
    }
  },
  forget() {
    browserStorage.remove(STORAGE_KEY);
  },
};

/** The plan a page opened with: in its URL, else waiting on the device (what useChosenPlan starts from). */
export const chosenPlanOnArrival = (): PaidPlan | null =>
  paidPlanOf(new URLSearchParams(window.location.search).get('plan')) ?? chosenPlan.read();
