import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SubscriptionPlan } from '@shared/constants';
import { ADMIN_API, API, adminPath } from '@shared/contract';
import { profiles, supportRequests, users } from '../db/schema';
import { readOutbox } from '../test/eml';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { unusedPort } from '../test/ports';
import { expectTheRestOfAWindow } from '../test/rate-limits';
import { createTestApp, type TestApp } from '../test/test-app';

const SUPPORT_ADDRESS = 'help-desk@innerwave.test';

describe('support requests', () => {
  let t: TestApp;
  let staff: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_EMAIL: SUPPORT_ADDRESS });
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
  });
  afterAll(() => t.close());

  const setPlan = (user: SignedInUser, plan: SubscriptionPlan) =>
    t.database.db
      .insert(profiles)
      .values({ userId: user.id, subscriptionPlan: plan })
      .onConflictDoUpdate({ target: profiles.userId, set: { subscriptionPlan: plan } });
  const send = (user: SignedInUser | undefined, payload: object) =>
    t.app.inject({ method: 'POST', url: API.support, headers: user?.headers ?? {}, payload });
  const mailsTo = async (address: string) => {
    await t.ctx.jobs.settled();
    return (await readOutbox(t.ctx.mailer.outboxDir!)).filter((mail) => mail.to === address);
  };
  const adminCall = (user: SignedInUser, method: 'GET' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload && { payload }) });

  it('stores a request, mails it to the support address with the sender as Reply-To, and a copy when asked', async () => {
    const user = await signedInUser(t.ctx, { email: 'Ada@example.com' });
    const res = await send(user, {
      subject: '  Sound stops  ',
      message: 'It stops after\ntwo minutes.',
      send_copy: true,
    });
    expect(res.statusCode).toBe(201);
    const receipt = res.json();
    expect(receipt).toEqual({ id: expect.any(Number), created_at: expect.any(String), priority: false });

    const [row] = await t.database.db.select().from(supportRequests).where(eq(supportRequests.id, receipt.id));
    expect(row).toMatchObject({
      userId: user.id,
      email: 'Ada@example.com',
      plan: 'basic',
      subject: 'Sound stops',
      message: 'It stops after\ntwo minutes.',
      priority: false,
      handledAt: null,
    });

    const [toSupport] = (await mailsTo(SUPPORT_ADDRESS)).filter((mail) => mail.subject.includes(`#${receipt.id}`));
    expect(toSupport).toMatchObject({
      replyTo: 'Ada@example.com',
      subject: `Support request #${receipt.id}: \u2068Sound stops\u2069`,
    });
    expect(toSupport!.text).toContain('It stops after\ntwo minutes.');
    expect(toSupport!.text).toContain('Plan: Basic');
    const [copy] = await mailsTo('Ada@example.com');
    expect(copy!.subject).toBe(`Your Innerwave support request #${receipt.id}: \u2068Sound stops\u2069`);
    expect(copy!.text).toContain('within 48 business hours');
    expect(copy!.replyTo).toBe(SUPPORT_ADDRESS);
    expect(copy!.text).not.toContain('priority');
    expect(copy!.text).toContain('It stops after\ntwo minutes.');
  });

  it('sends no copy unless asked', async () => {
    const user = await signedInUser(t.ctx);
    expect((await send(user, { subject: 'Hi', message: 'Hello' })).statusCode).toBe(201);
    expect((await send(user, { subject: 'Hi', message: 'Hello', send_copy: false })).statusCode).toBe(201);
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it.each([
    ['basic', false],
    ['intermediate', true],
    ['pro', true],
  ] as const)('flags a %s plan’s request priority: %s', async (plan, priority) => {
    const user = await signedInUser(t.ctx);
    await setPlan(user, plan);
    const res = await send(user, { subject: `From ${plan}`, message: 'Help', send_copy: true });
    expect(res.json().priority).toBe(priority);
    const [toSupport] = (await mailsTo(SUPPORT_ADDRESS)).filter((mail) => mail.subject.endsWith(`From ${plan}\u2069`));
    expect(toSupport!.subject.startsWith('[Priority] ')).toBe(priority);
    const [copy] = await mailsTo(user.email);
    expect(copy!.text.includes('answered first')).toBe(priority);
  });

  it('keeps the plan and e-mail of the moment it was sent', async () => {
    const user = await signedInUser(t.ctx);
    await setPlan(user, 'pro');
    const { id } = (await send(user, { subject: 'Then', message: 'Pro at the time' })).json();
    await setPlan(user, 'basic');
    await t.database.db.update(users).set({ email: 'renamed@example.com' }).where(eq(users.id, user.id));
    const list = (await adminCall(staff, 'GET', ADMIN_API.supportRequests)).json();
    expect(list.results.find((r: { id: number }) => r.id === id)).toMatchObject({
      email: user.email,
      plan: 'pro',
      priority: true,
    });
  });

  it('refuses a stranger before reading the body', async () => {
    const res = await send(undefined, { subject: 'x', message: 'y' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it.each([
    [{ message: 'Hello' }, { subject: ['This field is required.'] }],
    [{ subject: '   ', message: 'Hello' }, { subject: ['This field may not be blank.'] }],
    [
      { subject: 'x'.repeat(121), message: 'Hello' },
      { subject: ['Ensure this field has no more than 120 characters.'] },
    ],
    [
      { subject: 'Hi', message: 'x'.repeat(5001) },
      { message: ['Ensure this field has no more than 5,000 characters.'] },
    ],
    [{ subject: 'Hi', message: 'Hello', send_copy: 'yes' }, { send_copy: ['Must be true or false.'] }],
  ])('answers 400 with field errors for %j', async (payload, errors) => {
    const user = await signedInUser(t.ctx);
    const before = await t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, user.id));
    const res = await send(user, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errors);
    expect(before).toEqual([]);
    expect(await t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, user.id))).toEqual([]);
  });

  it('accepts exactly the longest subject and message', async () => {
    const user = await signedInUser(t.ctx);
    const res = await send(user, { subject: 's'.repeat(120), message: 'm'.repeat(5000) });
    expect(res.statusCode).toBe(201);
  });

  it('limits each person to 5 requests an hour, with a clear message, and counts others apart', async () => {
    const user = await signedInUser(t.ctx);
    for (let i = 0; i < 5; i++) expect((await send(user, { subject: `n${i}`, message: 'm' })).statusCode).toBe(201);
    const refused = await send(user, { subject: 'n5', message: 'm' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json().detail).toMatch(
      /^You have sent 5 support requests in the last hour\. You can send another in \d+ minutes?/,
    );
    const stored = await t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, user.id));
    expect(stored).toHaveLength(5);
    const other = await signedInUser(t.ctx);
    expect((await send(other, { subject: 'fine', message: 'm' })).statusCode).toBe(201);
  });

  it('counts the requests stored in the last hour, so a restart forgets none of them', async () => {
    const user = await signedInUser(t.ctx);
    const sentMinutesAgo = (minutes: number[]) =>
      t.database.db.insert(supportRequests).values(
        minutes.map((ago) => ({
          userId: user.id,
          email: user.email,
          plan: 'basic' as const,
          subject: `${ago} minutes ago`,
          message: 'm',
          priority: false,
          createdAt: new Date(Date.now() - ago * 60_000),
        })),
      );
    // Five sent before this server started, the oldest 61 minutes ago: four count, so one more goes.
    const began = Date.now();
    await sentMinutesAgo([61, 50, 40, 30, 20]);
    expect((await send(user, { subject: 'fifth', message: 'm' })).statusCode).toBe(201);
    const refused = await send(user, { subject: 'sixth', message: 'm' });
    expect(refused.statusCode).toBe(429);
    // The oldest that counts (50 minutes ago) leaves the hour in 10 minutes, less what the sends took (a minute or
    // more on a busy machine); the text rounds Retry-After up to minutes: "in 10 minutes" on a quiet machine.
    const retryAfter = Number(refused.headers['retry-after']);
    expectTheRestOfAWindow(retryAfter, 600, began);
    expect(refused.json().detail).toContain(`You can send another in ${Math.ceil(retryAfter / 60)} minutes;`);
  });

  it('counts two sends at once one after the other', async () => {
    const user = await signedInUser(t.ctx);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send(user, { subject: `at once ${i}`, message: 'm' })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const stored = await t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, user.id));
    expect(stored).toHaveLength(5);
  });

  it('lists requests for staff newest first, filters the open ones, and marks them handled', async () => {
    const user = await signedInUser(t.ctx);
    const first = (await send(user, { subject: 'Older', message: 'one' })).json();
    const second = (await send(user, { subject: 'Newer', message: 'two' })).json();
    const all = (await adminCall(staff, 'GET', ADMIN_API.supportRequests)).json();
    const ids = all.results.map((r: { id: number }) => r.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(all.count).toBe(all.results.length);
    expect(all.open).toBe(all.count);

    const url = adminPath(ADMIN_API.supportRequest, { id: first.id });
    const handled = await adminCall(staff, 'PATCH', url, { handled: true });
    expect(handled.statusCode).toBe(200);
    expect(handled.json()).toMatchObject({ id: first.id, subject: 'Older', handled_at: expect.any(String) });
    // Marking it again keeps the first time.
    const again = (await adminCall(staff, 'PATCH', url, { handled: true })).json();
    expect(again.handled_at).toBe(handled.json().handled_at);

    const open = (await adminCall(staff, 'GET', `${ADMIN_API.supportRequests}?open=true`)).json();
    expect(open.results.map((r: { id: number }) => r.id)).not.toContain(first.id);
    expect(open.results.map((r: { id: number }) => r.id)).toContain(second.id);
    expect(open.count).toBe(all.count - 1);
    expect(open.open).toBe(open.count);

    const reopened = await adminCall(staff, 'PATCH', url, { handled: false });
    expect(reopened.json().handled_at).toBeNull();
  });

  it('marks a request handled without making the workers drop their content caches', async () => {
    const user = await signedInUser(t.ctx);
    const { id } = (await send(user, { subject: 'Cache', message: 'm' })).json();
    const notices: string[] = [];
    t.ctx.notices.subscribe((notice) => notices.push(notice.kind));
    await adminCall(staff, 'PATCH', adminPath(ADMIN_API.supportRequest, { id }), { handled: true });
    expect(notices).toEqual([]);
  });

  it('answers 400 and 404 for what a client can get wrong on the staff calls', async () => {
    expect((await adminCall(staff, 'GET', `${ADMIN_API.supportRequests}?open=maybe`)).statusCode).toBe(400);
    const missing = await adminCall(staff, 'PATCH', adminPath(ADMIN_API.supportRequest, { id: 999999 }), {
      handled: true,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await adminCall(staff, 'PATCH', adminPath(ADMIN_API.supportRequest, { id: 1 }), {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ handled: ['This field is required.'] });
  });

  it.each([
    ['GET', ADMIN_API.supportRequests],
    ['PATCH', adminPath(ADMIN_API.supportRequest, { id: 1 })],
  ] as const)('%s %s is for staff only', async (method, url) => {
    const member = await signedInUser(t.ctx);
    expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    const refused = await t.app.inject({ method, url, headers: member.headers, payload: { handled: true } });
    expect(refused.statusCode).toBe(403);
  });

  it('lists a person’s own requests in their data export', async () => {
    const user = await signedInUser(t.ctx);
    const { id } = (await send(user, { subject: 'Mine', message: 'Export me' })).json();
    const exported = (await t.app.inject({ method: 'GET', url: API.userExport, headers: user.headers })).json();
    expect(exported.support_requests).toEqual([
      expect.objectContaining({ id, subject: 'Mine', message: 'Export me', plan: 'basic', handled_at: null }),
    ]);
    expect(exported.support_requests[0]).not.toHaveProperty('user_id');
  });

  it('describes its calls in the OpenAPI document', async () => {
    const { paths } = (await t.app.inject({ method: 'GET', url: API.openapi })).json();
    expect(Object.keys(paths['/api/user/support/'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '429']),
    );
    expect(paths['/api/admin/support-requests/'].get).toBeDefined();
    expect(paths['/api/admin/support-requests/{id}/'].patch).toBeDefined();
  });

  it('removes a person’s requests with their account', async () => {
    const user = await signedInUser(t.ctx);
    await send(user, { subject: 'Bye', message: 'm' });
    await t.database.db.delete(users).where(eq(users.id, user.id));
    expect(await t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, user.id))).toEqual([]);
  });
});

describe('support requests while the mail server is down', () => {
  it('answers 201 and keeps the request for staff', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await unusedPort()}` });
    try {
      const user = await signedInUser(t.ctx);
      const res = await t.app.inject({
        method: 'POST',
        url: API.support,
        headers: user.headers,
        payload: { subject: 'Mail is down', message: 'Still here?', send_copy: true },
      });
      expect(res.statusCode).toBe(201);
      await t.ctx.jobs.settled();
      const rows = await t.database.db.select().from(supportRequests).where(eq(supportRequests.userId, user.id));
      expect(rows).toMatchObject([{ subject: 'Mail is down', message: 'Still here?' }]);
    } finally {
      await t.close();
    }
  });
});
