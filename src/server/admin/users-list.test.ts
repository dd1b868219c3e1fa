import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { ADMIN_API, ADMIN_USER_PAGE_SIZE, type AdminUser, type AdminUserList } from '@shared/contract';
import { fillPath } from '@shared/contract/paths';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { billingAccounts, duplicateSubscriptions, users } from '../db/schema';

// The staff's user list with many users: pages newest first, search by e-mail or name, the "needs attention"
// filter, and every bad query value answered 400 or with an empty page (docs/product/api.md#users).

describe('admin user list', () => {
  let t: TestApp;
  let staff: SignedInUser;
  const list = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${ADMIN_API.users}${query}`, headers: staff.headers });
    return { status: res.statusCode, body: res.json() as AdminUserList };
  };
  const insertUser = async (values: Partial<typeof users.$inferInsert> & { email: string }) => {
    const [row] = await t.database.db
      .insert(users)
      .values({ passwordHash: 'x', isActive: true, ...values })
      .returning({ id: users.id });
    return row!.id;
  };
  const bill = (userId: number, values: Partial<typeof billingAccounts.$inferInsert> = {}) =>
    t.database.db.insert(billingAccounts).values({
      userId,
      stripeCustomerId: `cus_${userId}`,
      stripeSubscriptionId: `sub_${userId}`,
      subscriptionStatus: 'active',
      currentPeriodEnd: new Date('2031-01-01T00:00:00Z'),
      ...values,
    });
  const second = (userId: number, name: string, values: Partial<typeof duplicateSubscriptions.$inferInsert> = {}) =>
    t.database.db
      .insert(duplicateSubscriptions)
      .values({ subscriptionId: `sub_${name}_${userId}`, userId, keptSubscriptionId: `sub_${userId}`, ...values });

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
  });
  afterAll(() => t.close());

  describe('with more users than a page', () => {
    let ids: number[];
    beforeAll(async () => {
      // 120 more, in one insert: ids in the order they joined.
      const rows = await t.database.db
        .insert(users)
        .values(
          Array.from({ length: 120 }, (_, i) => ({
            email: `member${String(i).padStart(3, '0')}@example.com`,
            passwordHash: 'x',
            isActive: true,
          })),
        )
        .returning({ id: users.id });
      ids = [staff.id, ...rows.map((row) => row.id)];
    });

    it('pages through every user once, newest first, 50 a page', async () => {
      expect(ADMIN_USER_PAGE_SIZE).toBe(50);
      const first = await list('');
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(121);
      expect(first.body.results).toHaveLength(50);
      // The latest sign-up first.
      expect(first.body.results[0]!.email).toBe('member119@example.com');
      const pages = [first.body, (await list('?page=2')).body, (await list('?page=3')).body];
      expect(pages.map((page) => page.results.length)).toEqual([50, 50, 21]);
      expect(pages.map((page) => page.count)).toEqual([121, 121, 121]);
      expect(pages.flatMap((page) => page.results.map((user) => user.id))).toEqual([...ids].reverse());
      expect((await list('?page=1')).body).toEqual(first.body);
    });

    it('keeps its pages while people sign up: the first page’s newest_id holds the next ones, and says how many joined since', async () => {
      const first = (await list('')).body;
      expect(first).toMatchObject({ count: 121, newest_id: ids.at(-1), newer: 0 });
      // Two sign-ups between the first page and the next ones: offsets alone would show two people twice.
      const joined = [
        await insertUser({ email: 'late1@example.com' }),
        await insertUser({ email: 'late2@example.com' }),
      ];
      try {
        const bound = `newest_id=${first.newest_id}`;
        const later = [(await list(`?page=2&${bound}`)).body, (await list(`?page=3&${bound}`)).body];
        expect(later.map((page) => [page.count, page.newest_id, page.newer])).toEqual([
          [121, first.newest_id, 2],
          [121, first.newest_id, 2],
        ]);
        expect([first, ...later].flatMap((page) => page.results.map((user) => user.id))).toEqual([...ids].reverse());
        // A search keeps the bound too; without one, the first page starts with the latest sign-ups.
        expect((await list(`?search=late&${bound}`)).body).toMatchObject({ results: [], count: 0, newer: 2 });
        const now = (await list('')).body;
        expect(now).toMatchObject({ count: 123, newest_id: joined[1], newer: 0 });
        expect(now.results.slice(0, 2).map((user) => user.email)).toEqual(['late2@example.com', 'late1@example.com']);
      } finally {
        await t.database.db.delete(users).where(inArray(users.id, joined));
      }
    });

    it('answers an empty page past the last one, with the count', async () => {
      for (const page of ['4', '2147483647']) {
        expect(await list(`?page=${page}`)).toEqual({
          status: 200,
          body: {
            results: [],
            count: 121,
            needs_attention: 0,
            newest_id: ids.at(-1),
            newer: 0,
            // Past the last page: after everyone, one page more than there are.
            offset: 121,
            page: 4,
            pages: 3,
          },
        });
      }
      // A search changes where the last page is.
      expect((await list('?search=member11&page=2')).body).toMatchObject({ results: [], count: 10 });
    });

    it('skips nobody when a user on the page shown is deleted before the next one loads: after_id and before_id', async () => {
      const { db } = t.database;
      const rows = await db
        .insert(users)
        .values(
          Array.from({ length: 120 }, (_, i) => ({
            email: `keyset${String(i).padStart(3, '0')}@example.com`,
            passwordHash: 'x',
            isActive: true,
          })),
        )
        .returning({ id: users.id });
      const newestFirst = rows.map((row) => row.id).reverse();
      const idsOf = (page: AdminUserList) => page.results.map((user) => user.id);
      try {
        const first = (await list('?search=keyset')).body;
        expect(idsOf(first)).toEqual(newestFirst.slice(0, 50));
        const gone = newestFirst[10]!;
        await db.delete(users).where(inArray(users.id, [gone]));
        const query = `?search=keyset&newest_id=${first.newest_id}`;
        // By its number alone the next page slides up by one, and its first user is on neither page.
        expect(idsOf((await list(`${query}&page=2`)).body)[0]).toBe(newestFirst[51]);
        // Each page says where it is, from its own rows: the 49 users left before the second page's first,
        // not the 50 its number alone would mean ("51–100 of 119"), and the third holds the 100th to the 119th
        // (where counting pages of 50 said "101–120 of 119").
        const second = (await list(`${query}&page=2&after_id=${first.results.at(-1)!.id}`)).body;
        expect(idsOf(second)).toEqual(newestFirst.slice(50, 100));
        expect(second).toMatchObject({ count: 119, offset: 49, page: 2, pages: 3 });
        const third = (await list(`${query}&page=3&after_id=${second.results.at(-1)!.id}`)).body;
        expect(idsOf(third)).toEqual(newestFirst.slice(100));
        expect(third).toMatchObject({ count: 119, offset: 99, page: 3, pages: 3 });
        expect((await list(`${query}&page=4&after_id=${third.results.at(-1)!.id}`)).body).toMatchObject({
          results: [],
          offset: 119,
          page: 4,
          pages: 3,
        });
        // Back from the second page: the users just before its first, newest first (the first page less the deleted one).
        const back = (await list(`${query}&page=1&before_id=${second.results[0]!.id}`)).body;
        expect(idsOf(back)).toEqual(newestFirst.slice(0, 50).filter((id) => id !== gone));
        expect(back).toMatchObject({ offset: 0, page: 1, pages: 3 });
        const backFromThird = (await list(`${query}&page=2&before_id=${third.results[0]!.id}`)).body;
        expect(idsOf(backFromThird)).toEqual(idsOf(second));
        expect(backFromThird).toMatchObject({ offset: 49, page: 2, pages: 3 });
        // The page a number was given for says that number, whatever `page` a cursor came with.
        expect((await list(`${query}&page=7&after_id=${first.results.at(-1)!.id}`)).body).toMatchObject({ page: 2 });
        expect((await list(`${query}&page=2`)).body).toMatchObject({ offset: 50, page: 2, pages: 3 });

        // 101 users, the second page read by its number; one on the first page deleted: the last page
        // holds one user, whom Next must still reach (counted by the client, "Page 3 of 2" with Next off).
        await db.delete(users).where(inArray(users.id, newestFirst.slice(102)));
        const onSecond = (await list(`?search=keyset&page=2`)).body;
        expect(onSecond).toMatchObject({ count: 101, offset: 50, page: 2, pages: 3 });
        await db.delete(users).where(inArray(users.id, [newestFirst[0]!]));
        const last = (await list(`${query}&after_id=${onSecond.results.at(-1)!.id}`)).body;
        expect(idsOf(last)).toEqual([newestFirst[101]]);
        expect(last).toMatchObject({ count: 100, offset: 99, page: 3, pages: 3 });
      } finally {
        await db.delete(users).where(
          inArray(
            users.id,
            rows.map((row) => row.id),
          ),
        );
      }
    });

    it.each([
      ['page=0', { page: ['Ensure this value is greater than or equal to 1.'] }],
      ['page=-1', { page: ['Ensure this value is greater than or equal to 1.'] }],
      ['page=-<400 nines>', { page: ['Ensure this value is greater than or equal to 1.'] }],
      ['page=--1', { page: ['A valid integer is required.'] }],
      ['page=abc', { page: ['A valid integer is required.'] }],
      ['page=', { page: ['A valid integer is required.'] }],
      ['page=1.5', { page: ['A valid integer is required.'] }],
      ['page=1e3', { page: ['A valid integer is required.'] }],
      ['page=%201', { page: ['A valid integer is required.'] }],
      ['page=2147483648', { page: ['Ensure this value is less than or equal to 2147483647.'] }],
      ['page=<400 nines>', { page: ['Ensure this value is less than or equal to 2147483647.'] }],
      ['page=1&page=2', { page: ['A valid integer is required.'] }],
      ['search=<10,000 characters>', { search: ['Ensure this field has no more than 254 characters.'] }],
      ['search=a%00b', { search: ['Null characters are not allowed.'] }],
      ['search=a&search=b', { search: ['Not a valid string.'] }],
      ['attention=yes', { attention: ['Must be true or false.'] }],
      ['newest_id=0', { newest_id: ['Ensure this value is greater than or equal to 1.'] }],
      ['newest_id=abc', { newest_id: ['A valid integer is required.'] }],
      ['newest_id=2147483648', { newest_id: ['Ensure this value is less than or equal to 2147483647.'] }],
      ['after_id=0', { after_id: ['Ensure this value is greater than or equal to 1.'] }],
      ['before_id=x', { before_id: ['A valid integer is required.'] }],
      ['after_id=5&before_id=9', { before_id: ['Give after_id or before_id, not both.'] }],
    ])('answers 400 for %s', async (label, errors) => {
      const query = label.replace('<400 nines>', '9'.repeat(400)).replace('<10,000 characters>', 'a'.repeat(10_000));
      expect(await list(`?${query}`)).toEqual({ status: 400, body: errors });
    });
  });

  it('searches the e-mail and the name, any case, wildcards taken literally', async () => {
    const ada = await insertUser({ email: 'countess@analytical.test', firstName: 'Ada', lastName: 'Lovelace' });
    const grace = await insertUser({ email: 'admiral@navy.test', firstName: 'Grace', lastName: 'Hopper' });
    const percent = await insertUser({ email: '100%_sure@example.test', firstName: 'Per', lastName: 'Cent' });
    const found = async (search: string) =>
      (await list(`?search=${encodeURIComponent(search)}`)).body.results.map((user) => user.id);
    expect(await found('ANALYTICAL')).toEqual([ada]);
    expect(await found('ada')).toEqual([ada]);
    expect(await found('hopp')).toEqual([grace]);
    // First and last name together, as staff read them.
    expect(await found('ada love')).toEqual([ada]);
    expect(await found('  Grace Hopper ')).toEqual([grace]);
    expect(await found('a l')).toEqual([ada]);
    expect(await found('%_')).toEqual([percent]);
    expect(await found('_')).toEqual([percent]);
    expect(await found('ada hopper')).toEqual([]);
    expect((await list(`?search=${encodeURIComponent('ada love')}`)).body.count).toBe(1);
  });

  it('lists only the users whose billing needs staff, with why, the same on the list and the user', async () => {
    const needing: Record<string, number> = {};
    const fine: Record<string, number> = {};
    // Payment past due: Stripe retries the renewal.
    needing.pastDue = await insertUser({ email: 'past-due@attention.test' });
    await bill(needing.pastDue, { subscriptionStatus: 'past_due' });
    // A second subscription still being cancelled and refunded, and one Stripe refused.
    needing.pending = await insertUser({ email: 'pending@attention.test' });
    await bill(needing.pending);
    await second(needing.pending, 'pending');
    needing.refused = await insertUser({ email: 'refused@attention.test' });
    await bill(needing.refused);
    await second(needing.refused, 'refused', { failure: 'No such subscription' });
    // Deactivated by staff while the subscription still renews.
    needing.deactivated = await insertUser({
      email: 'deactivated@attention.test',
      isActive: false,
      deactivatedAt: new Date(),
    });
    await bill(needing.deactivated, { subscriptionStatus: 'trialing' });
    // Both: deactivated, and the payment failed.
    needing.both = await insertUser({ email: 'both@attention.test', isActive: false, deactivatedAt: new Date() });
    await bill(needing.both, { subscriptionStatus: 'past_due' });
    // Nothing to do: settled, paying, stopping, ended, or never billed.
    fine.settled = await insertUser({ email: 'settled@attention.test' });
    await bill(fine.settled);
    await second(fine.settled, 'settled', { settledAt: new Date(), refundedAmount: 3600, currency: 'usd' });
    fine.paying = await insertUser({ email: 'paying@attention.test' });
    await bill(fine.paying);
    fine.stopping = await insertUser({ email: 'stopping@attention.test', isActive: false, deactivatedAt: new Date() });
    await bill(fine.stopping, { cancelAtPeriodEnd: true });
    fine.stoppingAt = await insertUser({ email: 'stopping-at@attention.test', isActive: false });
    await bill(fine.stoppingAt, { cancelAt: new Date('2031-01-01T00:00:00Z') });
    fine.ended = await insertUser({ email: 'ended@attention.test', isActive: false, deactivatedAt: new Date() });
    await bill(fine.ended, { subscriptionStatus: 'canceled' });
    fine.unpaid = await insertUser({ email: 'unpaid@attention.test' });
    await bill(fine.unpaid, { subscriptionStatus: 'unpaid' });
    fine.waiting = await insertUser({ email: 'waiting@attention.test', isActive: false });

    const all = (await list('?search=attention.test')).body;
    expect(all.count).toBe(12);
    const reasons = Object.fromEntries(all.results.map((user) => [user.id, user.attention]));
    expect(reasons).toEqual({
      [needing.pastDue]: ['payment_failed'],
      [needing.pending]: ['second_subscription'],
      [needing.refused]: ['second_subscription'],
      [needing.deactivated]: ['deactivated_billing'],
      [needing.both]: ['payment_failed', 'deactivated_billing'],
      ...Object.fromEntries(Object.values(fine).map((id) => [id, []])),
    });

    // The filter lists exactly the users whose `attention` is not empty, newest first, and counts them whatever the query.
    const filtered = await list('?attention=true');
    expect(filtered.status).toBe(200);
    expect(filtered.body.results.map((user) => user.id)).toEqual(Object.values(needing).reverse());
    expect(filtered.body).toMatchObject({ count: 5, needs_attention: 5 });
    expect((await list('?attention=false')).body.count).toBeGreaterThan(12);
    expect((await list('?search=paying')).body).toMatchObject({ count: 1, needs_attention: 5 });
    expect((await list('?attention=true&search=REFUSED')).body.results.map((user) => user.id)).toEqual([
      needing.refused,
    ]);
    expect((await list('?attention=true&page=2')).body).toMatchObject({ results: [], count: 5, needs_attention: 5 });

    // One user's read says the same.
    for (const user of filtered.body.results) {
      const one = await t.app.inject({
        method: 'GET',
        url: fillPath(ADMIN_API.user, { id: user.id }),
        headers: staff.headers,
      });
      expect((one.json() as AdminUser).attention).toEqual(user.attention);
    }

    // Staff activate the deactivated account: its billing needs nothing more.
    const activated = await t.app.inject({
      method: 'PATCH',
      url: fillPath(ADMIN_API.user, { id: needing.deactivated }),
      headers: staff.headers,
      payload: { is_active: true },
    });
    expect((activated.json() as AdminUser).attention).toEqual([]);
    expect((await list('?attention=true')).body.count).toBe(4);
  });
});
