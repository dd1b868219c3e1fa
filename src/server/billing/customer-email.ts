import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { NewJob } from '../jobs/queue';
import type { JobHandler, JobLog } from '../jobs/runner';
import { checkoutExpiryJobHandlers } from './checkout-expiry';
import { billingAccountOf } from './service';
import { createStripeClient } from './stripe-client';

// Stripe mails receipts and invoices to its customer's address, and its Checkout and portal show it: a
// person who changes their e-mail here has it changed at Stripe too (docs/product/plans.md#the-address-stripe-writes-to).

export const CUSTOMER_EMAIL_JOB = 'billing.customer-email';

/** Tried as often as a mail, then left for staff (Support → Background jobs). */
const ATTEMPTS = 8;

/** Sets the person's Stripe customer to the address their account has when the job runs. */
export const customerEmailJob = (userId: number): NewJob => ({
  kind: CUSTOMER_EMAIL_JOB,
  payload: { userId },
  maxAttempts: ATTEMPTS,
});

const payloadSchema = z.object({ userId: z.number().int() });

export function billingJobHandlers({ config, db, log }: { config: Config; db: Db; log: JobLog }) {
  let client: Promise<Stripe> | undefined;
  const handler: JobHandler = async (job) => {
    const { userId } = payloadSchema.parse(job.payload);
    if (!config.stripe) return;
    const account = await billingAccountOf(db, userId);
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
    // Deleted meanwhile: its customer went with its subscriptions (billing/deletion.ts).
    if (!account || !user) return;
    client ??= createStripeClient(config.stripe);
    await (await client).customers.update(account.stripeCustomerId, { email: user.email });
    log.info({ job: job.id, userId, customer: account.stripeCustomerId }, 'billing: Stripe customer e-mail updated');
  };
  return { [CUSTOMER_EMAIL_JOB]: handler, ...checkoutExpiryJobHandlers({ config, db, log }) };
}
