import type { BillingRedirect, PaidPlan } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

// Paying for a plan (docs/product/api.md#billing): the server answers with a Stripe page to go to.

/** A Stripe Checkout page subscribing the person to `plan`. */
export const startCheckout = (plan: PaidPlan) =>
  apiRequest<BillingRedirect>(API.billingCheckout, { method: 'POST', body: { plan } });

/** Stripe's Customer Portal: change the plan, update the card, see invoices, cancel. */
export const openBillingPortal = () => apiRequest<BillingRedirect>(API.billingPortal, { method: 'POST' });
