import type Stripe from 'stripe';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { NewJob } from '../jobs/queue';
import type { JobHandler, JobLog } from '../jobs/runner';
import { expireOpenCheckouts } from './deletion';
import { billingAccountOf } from './service';
import { createStripeClient } from './stripe-client';

// After staff set a person's plan (the admin API, the CLI's set-plan): a Checkout page the person opened
// before would stay payable for the 24 hours Stripe keeps it, and sell them a plan on top of the one just
// granted; it is expired (docs/product/plans.md#how-a-plan-changes). The admin API queues it as a job in
// the plan's transaction and answers at once: Stripe out of reach takes up to the client's timeouts and
// retries, and the job is retried, and given back (not lost) by a server that stops (decision 066).

export const EXPIRE_CHECKOUTS_JOB = 'billing.expire-checkouts';

/** Tried as often as a mail, then left for staff (Support → Background jobs). */
const ATTEMPTS = 8;

export const expireCheckoutsJob = (userId: number): NewJob => ({
  kind: EXPIRE_CHECKOUTS_JOB,
  payload: { userId },
  maxAttempts: ATTEMPTS,
});

const payloadSchema = z.object({ userId: z.number().int() });

export function checkoutExpiryJobHandlers({ config, db, log }: { config: Config; db: Db; log: JobLog }) {
  let client: Promise<Stripe> | undefined;
  const handler: JobHandler = async (job) => {
    const { userId } = payloadSchema.parse(job.payload);
    if (!config.stripe) return;
    // No Stripe customer (or the account deleted since): no page was opened.
    const customer = (await billingAccountOf(db, userId))?.stripeCustomerId;
    if (!customer) return;
    client ??= createStripeClient(config.stripe);
    const pages = await expireOpenCheckouts(await client, customer);
    log.info(
      { job: job.id, userId, customer, pages },
      `billing: ${pages} open Checkout page(s) expired after staff set the plan`,
    );
  };
  return { [EXPIRE_CHECKOUTS_JOB]: handler };
}
