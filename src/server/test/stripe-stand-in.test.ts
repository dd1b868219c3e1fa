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

// The e2e's stand-in is another process: a test there refuses one customer's calls over HTTP (decision 134).
describe('the Stripe stand-in’s refused customers', () => {
  let stand: StripeStandIn;
  beforeAll(async () => {
    stand = await startStripeStandIn({ webhookSecret: 'whsec_stand_in_test' });
  });
  afterAll(() => stand.close());

  const post = (path: string, form: Record<string, string>) =>
    fetch(`${stand.url}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  const newCustomer = async () => ((await (await post('/v1/customers', {})).json()) as { id: string }).id;

  it('answers every call about a refused customer as in an outage, and the others as usual, until lifted', async () => {
    const [refused, other] = [await newCustomer(), await newCustomer()];
    expect((await fetch(`${stand.url}/control/refused-customers/${refused}`, { method: 'PUT' })).status).toBe(204);
    const update = await post(`/v1/customers/${refused}`, { email: 'new@example.com' });
    expect(update.status).toBe(500);
    expect(await update.json()).toMatchObject({ error: { type: 'api_error' } });
    expect((await post('/v1/checkout/sessions', { customer: refused, mode: 'subscription' })).status).toBe(500);
    expect((await post(`/v1/customers/${other}`, { email: 'other@example.com' })).status).toBe(200);

    expect((await fetch(`${stand.url}/control/refused-customers/${refused}`, { method: 'DELETE' })).status).toBe(204);
    expect((await post(`/v1/customers/${refused}`, { email: 'new@example.com' })).status).toBe(200);
  });
});
