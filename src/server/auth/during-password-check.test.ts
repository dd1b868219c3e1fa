import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, MESSAGES } from '@shared/contract';
import { sessions, users } from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { createSession } from './sessions';
import type * as Passwords from './passwords';
import type * as Deletion from '../billing/deletion';
import { createTestApp, type TestApp } from '../test/test-app';

// A login, or a call that asks for the current password, checks it on a thread, which takes a while: the account
// may change meanwhile (its password changed or reset elsewhere, staff deactivating or deleting it). The check runs
// as it does; what the account does meanwhile is done once it has answered, before the call goes on
// (docs/product/accounts.md#login, #self-service).

const during = vi.hoisted(() => ({ check: undefined as (() => Promise<unknown>) | undefined }));
// Stripe is told to cancel before an account is deleted: the deletion refused must not have reached it.
const cancelling = vi.hoisted(() => ({ users: [] as number[] }));
vi.mock('../billing/deletion', async (importOriginal) => {
  const actual = await importOriginal<typeof Deletion>();
  return {
    ...actual,
    async cancelSubscriptionsBeforeDeletion(...args: Parameters<typeof actual.cancelSubscriptionsBeforeDeletion>) {
      cancelling.users.push(args[1]);
      return actual.cancelSubscriptionsBeforeDeletion(...args);
    },
  };
});
vi.mock('./passwords', async (importOriginal) => {
  const actual = await importOriginal<typeof Passwords>();
  return {
    ...actual,
    async verifyPassword(passwordHash: string, password: string) {
      const right = await actual.verifyPassword(passwordHash, password);
      const meanwhile = during.check;
      during.check = undefined;
      await meanwhile?.();
      return right;
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sessionsOf = (user: SignedInUser) =>
  t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));

/** Logs `user` in with their password while `change` happens during its check. */
async function loginWhile(user: SignedInUser, change: () => Promise<unknown>) {
  during.check = change;
  const login = await t.app.inject({
    method: 'POST',
    url: API.tokenCreate,
    payload: { email: user.email, password: user.password },
  });
  expect(during.check).toBeUndefined();
  return login;
}

const REFUSED = { detail: MESSAGES.badCredentials };

describe('a login whose account changes while its password is checked', () => {
  it('opens no session once the password was changed: the old one no longer signs in, and no session outlives the change', async () => {
    const user = await signedInUser(t.ctx);
    const newPassword = 'quiet-harbour-evening-77';
    const login = await loginWhile(user, async () => {
      const changed = await t.app.inject({
        method: 'POST',
        url: API.setPassword,
        headers: user.headers,
        payload: { current_password: user.password, new_password: newPassword, re_new_password: newPassword },
      });
      expect(changed.statusCode).toBe(204);
    });
    expect(login.statusCode).toBe(401);
    expect(login.json()).toEqual(REFUSED);
    // Only the session that changed the password is left.
    expect(await sessionsOf(user)).toEqual([{ id: user.sessionId }]);
    // The new password signs in as ever.
    const again = await t.app.inject({
      method: 'POST',
      url: API.tokenCreate,
      payload: { email: user.email, password: newPassword },
    });
    expect(again.statusCode).toBe(200);
  });

  it('opens no session for an account deactivated or deleted meanwhile: 401 as for a wrong password, never a 500', async () => {
    const deactivated = await signedInUser(t.ctx);
    const refused = await loginWhile(deactivated, () =>
      t.database.db.update(users).set({ isActive: false }).where(eq(users.id, deactivated.id)),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(REFUSED);
    expect(await sessionsOf(deactivated)).toEqual([{ id: deactivated.sessionId }]);

    const deleted = await signedInUser(t.ctx);
    const gone = await loginWhile(deleted, () => t.database.db.delete(users).where(eq(users.id, deleted.id)));
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual(REFUSED);
  });

  it('opens the session and records the login when nothing changed meanwhile', async () => {
    const user = await signedInUser(t.ctx);
    const login = await loginWhile(user, async () => undefined);
    expect(login.statusCode).toBe(200);
    expect(await sessionsOf(user)).toHaveLength(2);
    const [row] = await t.database.db.select({ lastLogin: users.lastLogin }).from(users).where(eq(users.id, user.id));
    expect(row?.lastLogin).toBeInstanceOf(Date);
  });
});

describe('a change of e-mail address asked for while the password changes elsewhere', () => {
  it('keeps no waiting change, so no link the new password would sign is mailed: 401, its session ended', async () => {
    const user = await signedInUser(t.ctx);
    const elsewhere = await createSession(t.database.db, t.ctx.tokens, user.id);
    const newPassword = 'quiet-harbour-evening-77';
    during.check = async () => {
      const changed = await t.app.inject({
        method: 'POST',
        url: API.setPassword,
        headers: { authorization: `Bearer ${elsewhere.access}` },
        payload: { current_password: user.password, new_password: newPassword, re_new_password: newPassword },
      });
      expect(changed.statusCode).toBe(204);
    };
    const asked = await t.app.inject({
      method: 'POST',
      url: API.setEmail,
      headers: user.headers,
      payload: { new_email: 'someone-else@example.com', current_password: user.password },
    });
    expect(during.check).toBeUndefined();
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toEqual({ detail: 'Given token not valid for any token type', code: 'token_not_valid' });
    const [row] = await t.database.db
      .select({ pendingEmail: users.pendingEmail, pendingEmailAt: users.pendingEmailAt })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row).toEqual({ pendingEmail: null, pendingEmailAt: null });
  });
});

describe('an account deleted with the old password while the password changes elsewhere', () => {
  const deleteWhile = async (user: SignedInUser, change: () => Promise<unknown>) => {
    during.check = change;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: API.me,
      headers: user.headers,
      payload: { current_password: user.password },
    });
    expect(during.check).toBeUndefined();
    return deleted;
  };
  const stillThere = async (user: SignedInUser) =>
    (await t.database.db.select({ id: users.id }).from(users).where(eq(users.id, user.id))).length === 1;

  const newPassword = 'quiet-harbour-evening-77';
  it.each([
    ['its password is changed', API.setPassword, { new_password: newPassword, re_new_password: newPassword }],
    ['it is signed out everywhere else', API.logoutOthers, {}],
  ])('is not deleted, nor its subscription cancelled, when %s: 401, its session ended', async (_, url, change) => {
    const user = await signedInUser(t.ctx);
    const elsewhere = await createSession(t.database.db, t.ctx.tokens, user.id);
    const deleted = await deleteWhile(user, async () => {
      const changed = await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${elsewhere.access}` },
        payload: { current_password: user.password, ...change },
      });
      expect(changed.statusCode).toBeLessThan(300);
    });
    expect(deleted.statusCode).toBe(401);
    expect(deleted.json()).toEqual({ detail: 'Given token not valid for any token type', code: 'token_not_valid' });
    expect(await stillThere(user)).toBe(true);
    expect(cancelling.users).not.toContain(user.id);
  });

  it('is deleted when nothing changed meanwhile', async () => {
    const user = await signedInUser(t.ctx);
    const deleted = await deleteWhile(user, async () => undefined);
    expect(deleted.statusCode).toBe(204);
    expect(await stillThere(user)).toBe(false);
    expect(cancelling.users).toContain(user.id);
  });
});
