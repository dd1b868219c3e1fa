import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in';
import type * as Deletion from './deletion';

// A deletion cancels at Stripe what the person has, then deletes the account: a Checkout opened in another tab
// between the two, by a person who had no Stripe customer before it, made one the first step never saw
// (docs/product/accounts.md#deleting-the-account).
const between = vi.hoisted(() => ({ steps: undefined as (() => Promise<unknown>) | undefined }));
vi.mock('./deletion', async (importOriginal) => {
  const actual = await importOriginal<typeof Deletion>();
  return {
    ...actual,
    async cancelSubscriptionsBeforeDeletion(...args: Parameters<typeof actual.cancelSubscriptionsBeforeDeletion>) {
      const customer = await actual.cancelSubscriptionsBeforeDeletion(...args);
      const meanwhile = between.steps;
      between.steps = undefined;
      await meanwhile?.();
      return customer;
    },
  };
});

const SECRET = 'whsec_deletion_test';
const PRICES = { intermediate: 'price_intermediate_test', pro: 'price_pro_test' };

describe('a Checkout opened while the account is being deleted', () => {
  let t: TestApp;
  let stand: StripeStandIn;
  beforeAll(async () => {
    stand = await startStripeStandIn({ webhookSecret: SECRET });
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_deletion',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_PRICE_INTERMEDIATE: PRICES.intermediate,
      STRIPE_PRICE_PRO: PRICES.pro,
      STRIPE_API_URL: stand.url,
    });
  });
  afterAll(async () => {
    await t.close();
    await stand.close();
  });

  it('is expired once the account is gone, though the person had no Stripe customer when the deletion began', async () => {
    const ida = await signedInUser(t.ctx);
    let page: string | undefined;
    between.steps = async () => {
      const checkout = await t.app.inject({
        method: 'POST',
        url: API.billingCheckout,
        payload: { plan: 'pro' },
        headers: ida.headers,
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      page = checkout.json<{ url: string }>().url;
    };
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: API.me,
      payload: { current_password: ida.password },
      headers: ida.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(between.steps).toBeUndefined();
    expect(page).toBeDefined();
    await stand.idle();
    // The page can no longer take a payment for an account no one can sign in to.
    expect(stand.sessions.get(page!.split('/').pop()!)?.status).toBe('expired');
    expect((await fetch(`${page}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(410);
  });
});
