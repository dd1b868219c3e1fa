import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

// The stand-in's own pages, as a browser meets them in the e2e (its API is tested through billing's tests).
describe('the Stripe stand-in’s pages', () => {
  let stand: StripeStandIn;
  beforeAll(async () => {
    stand = await startStripeStandIn({ webhookSecret: 'whsec_stand_in_test' });
  });
  afterAll(() => stand.close());

  it('answers the icon a browser asks for beside its Checkout page with nothing, not a 404', async () => {
    const icon = await fetch(`${stand.url}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect(await icon.text()).toBe('');
    expect((await fetch(`${stand.url}/favicon.ico`, { method: 'HEAD' })).status).toBe(204);
  });

  it('still answers 404 for a page it does not have, and a POST to the icon', async () => {
    expect((await fetch(`${stand.url}/checkout/cs_test_none`)).status).toBe(404);
    expect((await fetch(`${stand.url}/favicon.ico`, { method: 'POST' })).status).toBe(404);
  });
});
