import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { API } from '@shared/contract';
import type { TestApp } from '../test/test-app';
import type { SmtpCapture } from '../test/smtp';
import { users } from '../db/schema';
import { hashPassword } from './passwords';
import { accountRow, linkParams, post, signupAndReadMail, startAccountsApp } from './test-helpers';
import { waitingOnLocks } from '../test/database';

// An activation link opened while something else changes its account: the answer says what happened, and
// what happened is what the answer says (docs/decisions/106-the-owner-of-an-address-keeps-their-account.md).

const STALE = { detail: 'Stale token for given user.' };
const INVALID = { token: ['Invalid token for given user.'] };

let t: TestApp;
let smtp: SmtpCapture;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, smtp, close } = await startAccountsApp());
});
afterAll(() => close());

const answer = (response: LightMyRequestResponse) => [response.statusCode, response.body ? response.json() : null];

describe('one activation link opened several times at once', () => {
  it('activates once: one 204, every other opening 403 stale, as when opened one after another', async () => {
    const { id, mail } = await signupAndReadMail(t, smtp, 'five.tabs@example.com');
    const link = linkParams(mail, 'activation');
    const responses = await Promise.all(Array.from({ length: 5 }, () => post(t, API.activation, link)));
    const answers = responses.map(answer);
    expect(answers.filter(([status]) => status === 204)).toEqual([[204, null]]);
    expect(answers.filter(([status]) => status !== 204)).toEqual(Array(4).fill([403, STALE]));
    expect((await accountRow(t, id))?.isActive).toBe(true);
  });
});

// PGlite runs one transaction at a time: only PostgreSQL can hold the account's row while the link is opened.
describe.runIf(inject('dbKind') === 'postgres')('an activation waiting on a change of its account', () => {
  /**
   * Opens the account's link while a transaction holds its row and makes `change` (the openings read the
   * account first, then wait to write it), and answers what the openings were answered.
   */
  async function openedDuring(
    email: string,
    openings: number,
    change: (
      tx: Parameters<Parameters<TestApp['database']['db']['transaction']>[0]>[0],
      id: number,
    ) => Promise<unknown>,
  ) {
    const { id, mail } = await signupAndReadMail(t, smtp, email);
    const link = linkParams(mail, 'activation');
    const opened: Promise<LightMyRequestResponse>[] = [];
    await t.database.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
      // inject() sends the request once awaited; then() sends it now.
      for (let i = 0; i < openings; i++) opened.push(post(t, API.activation, link).then((response) => response));
      await waitingOnLocks(t.database, openings);
      await change(tx, id);
    });
    return { id, answers: (await Promise.all(opened)).map(answer) };
  }

  it('two openings at once, each read before either wrote: one 204, the other 403 stale', async () => {
    const { id, answers } = await openedDuring('two.workers@example.com', 2, async () => undefined);
    expect(answers.sort()).toEqual(
      [
        [204, null],
        [403, STALE],
      ].sort(),
    );
    expect((await accountRow(t, id))?.isActive).toBe(true);
  });

  it('a deactivation by staff that comes first: the link is refused as one made before it, and the account stays inactive', async () => {
    const { id, answers } = await openedDuring('deactivated.meanwhile@example.com', 1, (tx, userId) =>
      tx.update(users).set({ isActive: false, deactivatedAt: new Date() }).where(eq(users.id, userId)),
    );
    expect(answers).toEqual([[400, INVALID]]);
    expect((await accountRow(t, id))?.isActive).toBe(false);
  });

  it('a new sign-up’s password that comes first: the earlier link is refused and does not activate the new password', async () => {
    const passwordHash = await hashPassword('Owner-Chose-This-91');
    const { id, answers } = await openedDuring('signed.up.again@example.com', 1, (tx, userId) =>
      tx.update(users).set({ passwordHash }).where(eq(users.id, userId)),
    );
    expect(answers).toEqual([[400, INVALID]]);
    expect(await accountRow(t, id)).toMatchObject({ isActive: false, passwordHash });
  });
});
