import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { profiles } from '../db/schema';

describe('admin users API', () => {
  let t: TestApp;
  let staff: SignedInUser;
  let member: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
    member = await signedInUser(t.ctx, { email: 'Member.One@Example.com' });
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/admin/users/'],
    ['PATCH', '/api/admin/users/1/'],
    ['GET', '/api/admin/message-categories/'],
    ['POST', '/api/admin/message-categories/import/'],
    ['GET', '/api/admin/audio/bonus/'],
    ['POST', '/api/admin/audio/bonus/'],
    ['DELETE', '/api/admin/applications/1/'],
    ['POST', '/api/admin/applications/'],
  ] as const)('%s %s answers 401 without a token and 403 for a normal user', async (method, url) => {
    const anonymous = await t.app.inject({ method, url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const bad = await t.app.inject({ method, url, headers: { authorization: 'Bearer nonsense' } });
    expect(bad.statusCode).toBe(401);
    const normal = await t.app.inject({ method, url, headers: member.headers });
    expect(normal.statusCode).toBe(403);
    expect(normal.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('lists users and searches by e-mail, any case', async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/admin/users/', headers: staff.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(2);
    const found = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users/?search=member.ONE',
      headers: staff.headers,
    });
    expect(found.json()).toMatchObject({
      count: 1,
      results: [
        {
          id: member.id,
          email: 'Member.One@Example.com',
          is_active: true,
          is_staff: false,
          subscription_plan: 'basic',
          deactivated_at: null,
        },
      ],
    });
    const wildcard = await t.app.inject({ method: 'GET', url: '/api/admin/users/?search=%25', headers: staff.headers });
    expect(wildcard.json().count).toBe(0);
  });

  it('sets the plan, creating the profile when it is missing', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { subscription_plan: 'pro' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription_plan).toBe('pro');
    const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.userId, member.id));
    expect(profile?.subscriptionPlan).toBe('pro');
  });

  it('deactivates a user, who is then refused, and activates them again without reviving old sessions', async () => {
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { is_active: false },
    });
    // The deactivation's time tells it from an account never activated, and stays through a reactivation.
    const before = Date.now();
    expect(off.json().is_active).toBe(false);
    const deactivatedAt = Date.parse(off.json().deactivated_at);
    expect(deactivatedAt).toBeGreaterThan(before - 60_000);
    expect(deactivatedAt).toBeLessThanOrEqual(Date.now());
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/users/', headers: member.headers });
    expect(refused.statusCode).toBe(401);
    const on = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { is_active: true },
    });
    expect(on.json()).toMatchObject({ is_active: true, deactivated_at: off.json().deactivated_at });
    // The tokens of before stay dead; the user signs in again.
    const oldAccess = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: member.headers });
    expect(oldAccess.statusCode).toBe(401);
    const oldRefresh = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/refresh/',
      payload: { refresh: member.refresh },
    });
    expect(oldRefresh.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/create/',
      payload: { email: member.email, password: member.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('rejects a bad plan, an empty update, self-deactivation and an unknown user', async () => {
    const plan = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { subscription_plan: 'gold' },
    });
    expect(plan.statusCode).toBe(400);
    expect(plan.json()).toHaveProperty('subscription_plan');
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${staff.id}/`,
      headers: staff.headers,
      payload: { is_active: false },
    });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ is_active: ['You cannot deactivate your own account.'] });
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/users/99999/',
      headers: staff.headers,
      payload: { is_active: true },
    });
    expect(missing.statusCode).toBe(404);
  });
});
