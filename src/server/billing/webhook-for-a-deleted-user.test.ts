import { eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { billingAccounts, profiles, stripeEvents, users } from '../db/schema';
import { waitingOnLocks } from '../test/database';
import { signedInUser } from '../test/fixtures';
import { standInStripeEnv, startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in';
import { createTestApp, type TestApp } from '../test/test-app';

// A Stripe event that makes the billing row of a person whose account is deleted at the same moment
// (docs/product/api.md#billing): recorded and ignored, 200, so Stripe stops sending it, as for a person never known;
// nothing is written for them. On PostgreSQL the event has read the account and waits on the rows the deletion
// holds, so it would write a row naming an account gone (a foreign-key violation, a 500 Stripe retries for days) but
// for its own hold of the account (holdAccount); PGlite runs one transaction at a time, so there the deletion lands
// before the event's read.

const SECRET = 'whsec_deleted_user_test';

let t: TestApp;
let stand: StripeStandIn;
beforeAll(async () => {
  stand = await startStripeStandIn({ webhookSecret: SECRET });
  t = await createTestApp(standInStripeEnv(stand.url, SECRET));
});
afterAll(async () => {
  await t.close();
  await stand.close();
});

type EventOf = (userId: number) => { type: string; object: object };

const checkoutCompleted: EventOf = (userId) => ({
  type: 'checkout.session.completed',
  object: {
    id: `cs_test_${userId}`,
    object: 'checkout.session',
    mode: 'subscription',
    client_reference_id: String(userId),
    customer: `cus_deleted_${userId}`,
    subscription: `sub_deleted_${userId}`,
  },
});

// A subscription's news before its Checkout's: the person is found by the user id put in its metadata.
const subscriptionCreated: EventOf = (userId) => ({
  type: 'customer.subscription.created',
  object: stand.subscription({
    customer: `cus_deleted_${userId}`,
    price: standInStripeEnv(stand.url, SECRET).STRIPE_PRICE_PRO,
    metadata: { user_id: String(userId) },
  }),
});

const deliver = (event: ReturnType<EventOf>, id?: string) => {
  const signed = stand.signedEvent(event.type, event.object, id ? { id } : {});
  const answer = t.app.inject({
    method: 'POST',
    url: API.billingWebhook,
    payload: signed.body,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.signature },
  });
  return { id: signed.event.id, answer };
};

describe('a Stripe event about a person whose account is deleted as it is applied', () => {
  it.each([
    ['a Checkout completed', checkoutCompleted],
    ['a subscription created, naming the person in its metadata', subscriptionCreated],
  ])('is recorded and ignored (200), writing nothing; its resend too: %s', async (_what, eventOf) => {
    const member = await signedInUser(t.ctx);
    const event = eventOf(member.id);
    let sent: { id: string; answer: Promise<LightMyRequestResponse> } | undefined;
    await t.database.db.transaction(async (tx) => {
      // The deletion holds the rows it takes, as deleting an account does (deleteUser), while the event is applied.
      await tx.select().from(billingAccounts).where(eq(billingAccounts.userId, member.id)).for('update');
      await tx.select().from(profiles).where(eq(profiles.userId, member.id)).for('update');
      await tx.select().from(users).where(eq(users.id, member.id)).for('update');
      // inject() sends the request once awaited; then() sends it now.
      const { id, answer } = deliver(event);
      sent = { id, answer: answer.then((response) => response) };
      if (t.database.kind === 'postgres') await waitingOnLocks(t.database);
      await tx.delete(users).where(eq(users.id, member.id));
    });
    const answered = await sent!.answer;
    expect([answered.statusCode, answered.json()]).toEqual([200, { received: true, duplicate: false }]);
    expect(await t.database.db.select().from(billingAccounts).where(eq(billingAccounts.userId, member.id))).toEqual([]);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.userId, member.id))).toEqual([]);
    expect(await t.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, sent!.id))).toHaveLength(1);
    const resent = await deliver(event, sent!.id).answer;
    expect([resent.statusCode, resent.json()]).toEqual([200, { received: true, duplicate: true }]);
  });

  it.each([
    ['a Checkout completed', checkoutCompleted],
    ['a subscription created, naming the person in its metadata', subscriptionCreated],
  ])('is applied for a person whose account stays: %s', async (_what, eventOf) => {
    const member = await signedInUser(t.ctx);
    const answered = await deliver(eventOf(member.id)).answer;
    expect([answered.statusCode, answered.json()]).toEqual([200, { received: true, duplicate: false }]);
    expect(
      await t.database.db
        .select({ customer: billingAccounts.stripeCustomerId })
        .from(billingAccounts)
        .where(eq(billingAccounts.userId, member.id)),
    ).toEqual([{ customer: `cus_deleted_${member.id}` }]);
  });
});
