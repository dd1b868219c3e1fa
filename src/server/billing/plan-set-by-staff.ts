import type { Db } from '../db/client';
import type { StripeConfig } from '../config';
import { expireOpenCheckouts } from './deletion';
import { billingAccountOf } from './service';
import { asStripeError, createStripeClient } from './stripe-client';

// After staff set a person's plan (the admin API, the CLI's set-plan): a Checkout page the person opened
// before would stay payable for the 24 hours Stripe keeps it, and sell them a plan on top of the one just
// granted; it is expired (docs/product/plans.md#how-a-plan-changes).

/** Where the outcome is told: the request's log, or the CLI's output. */
export interface PlanSetReport {
  expired(customer: string, pages: number): void;
  failed(customer: string, error: unknown, stripeType: string | undefined): void;
}

/**
 * Expires the person's open Checkout pages at Stripe, when payments are set up and they have a Stripe
 * customer. Stripe out of reach or refusing is reported, not thrown: the plan staff set stands.
 */
export async function expireCheckoutsAfterPlanSet(
  db: Db,
  stripeConfig: StripeConfig | undefined,
  userId: number,
  report: PlanSetReport,
): Promise<void> {
  if (!stripeConfig) return;
  const customer = (await billingAccountOf(db, userId))?.stripeCustomerId;
  if (!customer) return;
  try {
    const pages = await expireOpenCheckouts(await createStripeClient(stripeConfig), customer);
    report.expired(customer, pages);
  } catch (error) {
    report.failed(customer, error, (await asStripeError(error))?.type);
  }
}
