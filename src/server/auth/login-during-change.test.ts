import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, MESSAGES } from '@shared/contract';
import { sessions, users } from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import type * as Passwords from './passwords';
import { createTestApp, type TestApp } from '../test/test-app';

// A login checks the password on a thread, which takes a while: the account may change meanwhile (its password
// changed or reset elsewhere, staff deactivating or deleting it). The check runs as it does; what the account
// does meanwhile is done once it has answered, before the login goes on (docs/product/accounts.md#login).

const during = vi.hoisted(() => ({ check: undefined as (() => Promise<unknown>) | undefined }));
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
