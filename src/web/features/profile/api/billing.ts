import type { PaidPlan } from '@shared/contract';
import { billingRedirectSchema } from '@shared/contract/billing';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

// Paying for a plan (docs/product/api.md#billing): the server answers with a Stripe page to go to.

/** A Stripe Checkout page subscribing the person to `plan`. */
export const startCheckout = (plan: PaidPlan) =>
  apiRequest(API.billingCheckout, { method: 'POST', body: { plan }, schema: billingRedirectSchema });

/** Stripe's Customer Portal: change the plan, update the card, see invoices, cancel. */
export const openBillingPortal = () => apiRequest(API.billingPortal, { method: 'POST', schema: billingRedirectSchema });
