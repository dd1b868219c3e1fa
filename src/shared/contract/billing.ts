import { z } from 'zod';

// Paying for a plan with Stripe (docs/product/api.md#billing, decisions §9): Checkout to subscribe,
// the Customer Portal to change plan, update the card or cancel, and Stripe's signed webhooks as the
// only source of a plan change. A server with no Stripe keys answers the billing calls 503 and runs
// as before (operators set plans).

import { MESSAGES } from './errors';
import { PAID_PLANS } from './plain';

export { BILLING_MESSAGES } from './portal-plain';

export { PAID_PLANS, type PaidPlan } from './plain';

/** Where Stripe sends the person back: the profile's Plan & billing panel. */
export const BILLING_RETURN = {
  /** Checkout paid (the plan changes when the webhook lands: poll GET /api/user/plan/). */
  success: '/profile?billing=success',
  /** Checkout left without paying. */
  cancel: '/profile?billing=cancelled',
  /** Back from the Customer Portal (a change made there lands by the webhook, a moment later: the plan is asked again for a while). */
  portal: '/profile?billing=portal',
} as const;

/** POST /api/billing/checkout/ */
export const checkoutRequestSchema = z.object({
  plan: z.enum(PAID_PLANS, {
    error: (issue) => (issue.input === undefined ? MESSAGES.required : `Choose one of: ${PAID_PLANS.join(', ')}.`),
  }),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** The answer of checkout and portal: the Stripe page to send the browser to. */
export const billingRedirectSchema = z.object({ url: z.string() });
export type BillingRedirect = z.infer<typeof billingRedirectSchema>;

/** Stripe's subscription statuses, as Stripe names them. */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The billing part of GET /api/user/plan/. */
export const billingStateSchema = z.object({
  /** Whether this server takes payments (Stripe keys set); when false, Upgrade explains it does not. */
  configured: z.boolean(),
  /** The Stripe subscription's status, or null with no subscription (never subscribed, or set by an operator). */
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  /** ISO 8601: the next renewal of a live subscription that will renew; else null. */
  renews_at: z.string().nullable(),
  /** ISO 8601: when a subscription cancelled at period end stops (the plan drops to Basic then); else null. */
  cancels_at: z.string().nullable(),
  /** The last payment failed: the plan is kept while Stripe retries; the person should update the card. */
  past_due: z.boolean(),
  /**
   * The person has had a subscription (paid, or being paid), so the Customer Portal (POST /api/billing/portal/)
   * has their invoices and card to show; false for one who only began a Checkout and left it unpaid, or whose
   * subscription's first payment never went through (`incomplete_expired`).
   */
  can_manage: z.boolean(),
});
export type BillingState = z.infer<typeof billingStateSchema>;

/** The billing state of someone who never paid on a server without Stripe keys. */
export const NO_BILLING: BillingState = {
  configured: false,
  status: null,
  renews_at: null,
  cancels_at: null,
  past_due: false,
  can_manage: false,
};

/** What staff see of a user's billing (admin users list and detail). */
export const adminBillingSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  past_due: z.boolean(),
  /** ISO 8601 end of the current paid period, or null. */
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  stripe_customer_id: z.string().nullable(),
  stripe_subscription_id: z.string().nullable(),
  /**
   * The person's second live subscriptions (two Checkouts paid at the same moment), which the webhook
   * cancels at Stripe and refunds (docs/product/plans.md): every one still to settle, the one waiting
   * longest first, then the latest settled one; empty if there never was one.
   */
  second_subscriptions: z.array(
    z.object({
      subscription_id: z.string(),
      /** ISO 8601 when it was cancelled and refunded; null while that is still to do or Stripe refused. */
      settled_at: z.string().nullable(),
      /** What was refunded, in the currency's smallest unit; null before, 0 if it had charged nothing. */
      refunded_amount: z.number().int().nullable(),
      currency: z.string().nullable(),
      /** Stripe's refusal: staff cancel and refund it at Stripe. */
      failure: z.string().nullable(),
    }),
  ),
});
export type AdminBilling = z.infer<typeof adminBillingSchema>;

/** A user with no Stripe record. */
export const NO_ADMIN_BILLING: AdminBilling = {
  status: null,
  past_due: false,
  current_period_end: null,
  cancel_at_period_end: false,
  stripe_customer_id: null,
  stripe_subscription_id: null,
  second_subscriptions: [],
};
