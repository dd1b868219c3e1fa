import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { profiles, users } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';

// A write for an account deleted after its token was checked (docs/product/errors-and-limits.md): the
// account is deleted under a session this worker still holds as live, as another worker's deletion leaves
// it until the notice arrives, so every write below finds the account gone, on each run.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const TOKEN_NOT_VALID = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

/** A signed-in person whose session this worker has checked, whose account is then deleted. */
async function goneAfterTheCheck(): Promise<SignedInUser> {
  const user = await signedInUser(t.ctx);
  expect((await t.app.inject({ method: 'GET', url: API.me, headers: user.headers })).statusCode).toBe(200);
  await t.database.db.delete(users).where(eq(users.id, user.id));
  return user;
}

describe('a write for an account deleted after its token was checked', () => {
  it.each([
    ['reading the profile the first time (its row is made)', 'GET', API.profile, undefined],
    [
      'recording a session listened to',
      'POST',
      API.history,
      {
        kind: 'program',
        ref: 'program:seven-nights-of-rest/1',
        title: 'Seven Nights of Rest · Day 1',
        seconds: 600,
        finished: true,
        started_at: new Date(Date.now() - 15 * 60_000).toISOString(),
      },
    ],
  ] as const)('is answered 401 token_not_valid, keeping nothing: %s', async (_what, method, url, payload) => {
    const user = await goneAfterTheCheck();
    const res = await t.app.inject({ method, url, headers: user.headers, ...(payload && { payload }) });
    expect([res.statusCode, res.json()]).toEqual([401, TOKEN_NOT_VALID]);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.userId, user.id))).toEqual([]);
  });
});
