import { eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, users } from '../db/schema';
import { signedInUser } from '../test/fixtures';
import { createTestApp, type TestApp } from '../test/test-app';
import { waitingOnLocks } from '../test/database';

// Staff changing a user who is deleted at the same moment (docs/product/api.md#admin): answered as an unknown
// user, 404, with nothing written for them. On PostgreSQL the change has read the user and waits on the rows
// the deletion holds, so it would write for an account gone but for its own lock of the user's row
// (updateUser); PGlite runs one transaction at a time, so there the deletion lands before the change's read.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NOT_FOUND = { detail: 'Not found.' };

const plan = { method: 'PATCH', path: '', payload: { subscription_plan: 'pro' } } as const;
const activity = { method: 'PATCH', path: '', payload: { is_active: false } } as const;
const emailChangeCancel = { method: 'DELETE', path: 'email-change/', payload: undefined } as const;

describe('staff changing a user deleted after it was read', () => {
  it.each([
    ['setting the plan of a user with a profile', plan, true],
    ['setting the plan of a user without a profile yet', plan, false],
    ['deactivating the user', activity, true],
    ['cancelling their change of e-mail address', emailChangeCancel, true],
  ])('answers 404 and writes nothing: %s', async (_what, call, withProfile) => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const member = await signedInUser(t.ctx);
    if (!withProfile) await t.database.db.delete(profiles).where(eq(profiles.userId, member.id));
    let change: Promise<LightMyRequestResponse> | undefined;
    await t.database.db.transaction(async (tx) => {
      // The deletion holds the rows it takes, as deleting an account does, while the change is on its way.
      await tx.select().from(profiles).where(eq(profiles.userId, member.id)).for('update');
      await tx.select().from(users).where(eq(users.id, member.id)).for('update');
      // inject() sends the request once awaited; then() sends it now.
      change = t.app
        .inject({
          method: call.method,
          url: `/api/admin/users/${member.id}/${call.path}`,
          headers: staff.headers,
          ...(call.payload && { payload: call.payload }),
        })
        .then((response) => response);
      if (t.database.kind === 'postgres') await waitingOnLocks(t.database);
      await tx.delete(users).where(eq(users.id, member.id));
    });
    const changed = await change!;
    expect([changed.statusCode, changed.json()]).toEqual([404, NOT_FOUND]);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.userId, member.id))).toEqual([]);
    expect(await t.database.db.select().from(users).where(eq(users.id, member.id))).toEqual([]);
  });
});
