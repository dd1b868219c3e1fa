import type Stripe from 'stripe';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { NewJob } from '../jobs/queue';
import type { JobHandler, JobLog } from '../jobs/runner';
import { expireOpenCheckouts } from './deletion';
import { planOf } from '../own/service';
import { billingAccountOf, checkoutRefusal, planOfPage } from './service';
import { createStripeClient } from './stripe-client';

// After staff set a person's plan (the admin API, the CLI's set-plan), or a subscription became their live
// one otherwise than through a page (the Customer Portal): a Checkout page the person opened before would
// stay payable for the 24 hours Stripe keeps it, and sell them a plan on top; it is expired
// (docs/product/plans.md#how-a-plan-changes). The admin API and the webhook queue it as a job in the
// change's transaction and answer at once: Stripe out of reach takes up to the client's timeouts and
// retries, and the job is retried, and given back (not lost) by a server that stops (decision 066). A Checkout
// request whose page Stripe opened as the plan changed queues it too when Stripe does not answer that page's expiry.

export const EXPIRE_CHECKOUTS_JOB = 'billing.expire-checkouts';

/** Tried as often as a mail, then left for staff (Support → Background jobs). */
const ATTEMPTS = 8;

const CAUSES = {
  'plan-set': 'after staff set the plan',
  'subscription-live': 'once another subscription became live',
  'checkout-refused': 'that a Checkout request opened as the plan changed',
} as const;

export const expireCheckoutsJob = (userId: number, cause: keyof typeof CAUSES): NewJob => ({
  kind: EXPIRE_CHECKOUTS_JOB,
  payload: { userId, cause },
  maxAttempts: ATTEMPTS,
});

const payloadSchema = z.object({
  userId: z.number().int(),
  cause: z.enum(Object.keys(CAUSES) as [keyof typeof CAUSES]),
});

/**
 * Expires the person's open Checkout pages that a Checkout request would refuse as things stand now (a live
 * subscription, or the page's plan held or below the one held); answers how many. Asked when the job runs, a
 * page opened after the change was undone (the subscription cancelled since) is left theirs to pay.
 */
export async function expireCheckoutsNotForSale(
  db: Db,
  stripe: Stripe,
  userId: number,
  customer: string,
): Promise<number> {
  const account = await billingAccountOf(db, userId);
  const held = await planOf(db, userId);
  return expireOpenCheckouts(stripe, customer, (session) => {
    const plan = planOfPage(session);
    return plan === undefined || checkoutRefusal(account, held, plan) !== undefined;
  });
}

export function checkoutExpiryJobHandlers({ config, db, log }: { config: Config; db: Db; log: JobLog }) {
  let client: Promise<Stripe> | undefined;
  const handler: JobHandler = async (job) => {
    const { userId, cause } = payloadSchema.parse(job.payload);
    if (!config.stripe) return;
    // No Stripe customer (or the account deleted since): no page was opened.
    const customer = (await billingAccountOf(db, userId))?.stripeCustomerId;
    if (!customer) return;
    client ??= createStripeClient(config.stripe);
    const pages = await expireCheckoutsNotForSale(db, await client, userId, customer);
    log.info(
      { job: job.id, userId, customer, pages, cause },
      `billing: ${pages} open Checkout page(s) expired ${CAUSES[cause]}`,
    );
  };
  return { [EXPIRE_CHECKOUTS_JOB]: handler };
}
