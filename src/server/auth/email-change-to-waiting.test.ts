import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { API } from '@shared/contract';
import type { TestApp } from '../test/test-app';
import type { SmtpCapture } from '../test/smtp';
import { waitingOnLocks } from '../test/database';
import { profiles, users } from '../db/schema';
import { encodeUid } from './account-tokens';
import { ACCOUNT_MESSAGES } from './accounts';
import {
  accountRow,
  activeAccount,
  linkParams,
  loginPair,
  PASSWORD,
  post,
  signUp,
  signupAndReadMail,
  startAccountsApp,
} from './test-helpers';

// A change of e-mail address to an address whose account waits for its activation: the address is free to it, as
// to a sign-up, and the change's link, opened, removes the waiting account and takes the address, whatever comes
// at the same moment: one owner, and a clear answer to whoever lost
// (docs/decisions/110-an-account-waiting-for-its-link-gives-way-and-ends.md).

const SQUATTER_PASSWORD = 'Borrowed-Lantern-44';
const TAKEN = { new_email: [ACCOUNT_MESSAGES.emailTaken] };

let t: TestApp;
let smtp: SmtpCapture;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, smtp, close } = await startAccountsApp());
});
afterAll(() => close());

const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const answer = (response: LightMyRequestResponse) => [response.statusCode, response.body ? response.json() : null];
const profileRow = async (id: number) =>
  (await t.database.db.select().from(profiles).where(eq(profiles.userId, id)))[0];
const accountsOf = async (email: string) =>
  (await t.database.db.select({ id: users.id, email: users.email }).from(users)).filter(
    (row) => row.email.toLowerCase() === email.toLowerCase(),
  );

/** A stranger's sign-up with `email`: an account that waits for the link mailed to the address. */
const squatted = (email: string) => signupAndReadMail(t, smtp, email, SQUATTER_PASSWORD);

/** An active account that asked to move to `newEmail`, and the link mailed there for it. */
async function movingTo(email: string, newEmail: string) {
  const { id } = await activeAccount(t, smtp, email);
  const { access } = await loginPair(t, email);
  const asked = await post(t, API.setEmail, { current_password: PASSWORD, new_email: newEmail }, bearer(access));
  expect(answer(asked)).toEqual([204, null]);
  await t.ctx.jobs.settled();
  const uidPath = `/email/confirm/${encodeUid(id)}/`;
  const mail = await smtp.waitFor((m) => m.to.includes(newEmail) && m.text.includes(uidPath));
  return { id, access, link: linkParams(mail, 'email/confirm') };
}

const confirm = (link: { uid: string; token: string }) => post(t, API.setEmailConfirm, link);

describe('a change of e-mail address to an address whose account waits for its activation', () => {
  it('is let in, and its link removes the waiting account and takes the address, whose earlier link then opens nothing', async () => {
    const squatter = await squatted('Ada.Owner@example.com');
    const owner = await movingTo('ada.old@example.com', 'ada.owner@example.com');

    expect(answer(await confirm(owner.link))).toEqual([204, null]);
    expect(await accountRow(t, owner.id)).toMatchObject({ email: 'ada.owner@example.com', pendingEmail: null });
    expect(await accountRow(t, squatter.id)).toBeUndefined();
    expect(await profileRow(squatter.id)).toBeUndefined();
    expect(await accountsOf('ada.owner@example.com')).toEqual([{ id: owner.id, email: 'ada.owner@example.com' }]);
    // The stranger's link and password open nothing; the owner signs in with the address.
    expect(answer(await post(t, API.activation, linkParams(squatter.mail, 'activation')))).toEqual([
      400,
      { uid: [ACCOUNT_MESSAGES.invalidUid] },
    ]);
    const strangers = await post(t, API.tokenCreate, { email: 'ada.owner@example.com', password: SQUATTER_PASSWORD });
    expect(strangers.statusCode).toBe(401);
    await loginPair(t, 'ada.owner@example.com');
  });

  it('is mailed a new link when asked to send it again, and a sign-up of the address is then told it exists', async () => {
    await squatted('grace.new@example.com');
    const owner = await movingTo('grace@example.com', 'grace.new@example.com');
    const sent = smtp.mails.length;
    expect(answer(await post(t, API.setEmailResend, undefined, bearer(owner.access)))).toEqual([204, null]);
    await t.ctx.jobs.settled();
    const resent = smtp.mails.slice(sent).filter((m) => m.to.includes('grace.new@example.com'));
    expect(resent).toHaveLength(1);
    expect(answer(await confirm(linkParams(resent[0]!, 'email/confirm')))).toEqual([204, null]);
    expect(answer(await signUp(t, 'Grace.New@example.com', SQUATTER_PASSWORD))).toEqual([
      400,
      { email: [ACCOUNT_MESSAGES.emailTaken] },
    ]);
  });

  it('is refused as taken, removing nothing, once the waiting account was activated or deactivated by staff', async () => {
    const activated = await squatted('hedy.new@example.com');
    const toActivated = await movingTo('hedy@example.com', 'hedy.new@example.com');
    expect(answer(await post(t, API.activation, linkParams(activated.mail, 'activation')))).toEqual([204, null]);
    expect(answer(await confirm(toActivated.link))).toEqual([400, TAKEN]);

    const deactivated = await squatted('emmy.new@example.com');
    const toDeactivated = await movingTo('emmy@example.com', 'emmy.new@example.com');
    await t.database.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, deactivated.id));
    expect(answer(await confirm(toDeactivated.link))).toEqual([400, TAKEN]);
    // Asked now, both are refused at once.
    for (const [change, address] of [
      [toActivated, 'hedy.new@example.com'],
      [toDeactivated, 'emmy.new@example.com'],
    ] as const) {
      const asked = await post(
        t,
        API.setEmail,
        { current_password: PASSWORD, new_email: address },
        bearer(change.access),
      );
      expect(answer(asked)).toEqual([400, TAKEN]);
    }
    expect(await accountRow(t, activated.id)).toMatchObject({ email: 'hedy.new@example.com', isActive: true });
    expect(await accountRow(t, deactivated.id)).toMatchObject({ email: 'emmy.new@example.com', isActive: false });
    expect(await accountRow(t, toActivated.id)).toMatchObject({ email: 'hedy@example.com' });
    expect(await accountRow(t, toDeactivated.id)).toMatchObject({ email: 'emmy@example.com' });
  });

  it('of two accounts opening their links to one address at once, moves one; the other is told it is taken', async () => {
    const squatter = await squatted('lise.new@example.com');
    const first = await movingTo('lise@example.com', 'lise.new@example.com');
    const second = await movingTo('lise.too@example.com', 'lise.new@example.com');
    const answers = (await Promise.all([confirm(first.link), confirm(second.link)])).map(answer);
    expect(answers.sort()).toEqual(
      [
        [204, null],
        [400, TAKEN],
      ].sort(),
    );
    expect(await accountRow(t, squatter.id)).toBeUndefined();
    expect(await accountsOf('lise.new@example.com')).toHaveLength(1);
  });
});

// PGlite runs one transaction at a time: only PostgreSQL can hold the waiting account's row while the others wait.
describe.runIf(inject('dbKind') === 'postgres')(
  'a change taking a waiting account’s address at the same moment as',
  () => {
    type Tx = Parameters<Parameters<TestApp['database']['db']['transaction']>[0]>[0];
    /**
     * Holds the waiting account's row while `requests` are sent one after the other, each once the ones before it wait
     * on a lock (the first to wait is the first to go), then lets them go with `change` made; answers their answers.
     */
    async function heldWhile(
      waitingId: number,
      requests: Array<() => Promise<LightMyRequestResponse>>,
      change: (tx: Tx) => Promise<unknown> = async () => undefined,
    ) {
      const sent: Promise<LightMyRequestResponse>[] = [];
      await t.database.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, waitingId)).for('update');
        for (const request of requests) {
          // inject() sends the request once awaited; then() sends it now.
          sent.push(request().then((response) => response));
          await waitingOnLocks(t.database, sent.length);
        }
        await change(tx);
      });
      return (await Promise.all(sent)).map(answer);
    }

    it('the waiting account’s activation, first: the account is active and the change is told the address is taken', async () => {
      const squatter = await squatted('rosalind.new@example.com');
      const owner = await movingTo('rosalind@example.com', 'rosalind.new@example.com');
      const activation = linkParams(squatter.mail, 'activation');
      const answers = await heldWhile(squatter.id, [
        () => post(t, API.activation, activation),
        () => confirm(owner.link),
      ]);
      expect(answers).toEqual([
        [204, null],
        [400, TAKEN],
      ]);
      expect(await accountRow(t, squatter.id)).toMatchObject({ isActive: true });
      expect(await accountRow(t, owner.id)).toMatchObject({ email: 'rosalind@example.com' });
    });

    it('the waiting account’s activation, second: the change takes the address and the link is told its account is gone', async () => {
      const squatter = await squatted('mary.new@example.com');
      const owner = await movingTo('mary@example.com', 'mary.new@example.com');
      const activation = linkParams(squatter.mail, 'activation');
      const answers = await heldWhile(squatter.id, [
        () => confirm(owner.link),
        () => post(t, API.activation, activation),
      ]);
      expect(answers).toEqual([
        [204, null],
        [400, { uid: [ACCOUNT_MESSAGES.invalidUid] }],
      ]);
      expect(await accountRow(t, squatter.id)).toBeUndefined();
      expect(await accountRow(t, owner.id)).toMatchObject({ email: 'mary.new@example.com' });
    });

    it('another change to the address: the first to open its link takes it, the second is told it is taken', async () => {
      const squatter = await squatted('chien.new@example.com');
      const first = await movingTo('chien@example.com', 'chien.new@example.com');
      const second = await movingTo('chien.too@example.com', 'chien.new@example.com');
      const answers = await heldWhile(squatter.id, [() => confirm(first.link), () => confirm(second.link)]);
      expect(answers).toEqual([
        [204, null],
        [400, TAKEN],
      ]);
      expect(await accountsOf('chien.new@example.com')).toEqual([{ id: first.id, email: 'chien.new@example.com' }]);
      expect(await accountRow(t, second.id)).toMatchObject({
        email: 'chien.too@example.com',
        pendingEmail: 'chien.new@example.com',
      });
    });

    it('a sign-up of the address, second: the change takes it and the sign-up is told it exists', async () => {
      const squatter = await squatted('barbara.new@example.com');
      const owner = await movingTo('barbara@example.com', 'barbara.new@example.com');
      const answers = await heldWhile(squatter.id, [
        () => confirm(owner.link),
        () => signUp(t, 'barbara.new@example.com', 'Another-Lantern-45'),
      ]);
      expect(answers).toEqual([
        [204, null],
        [400, { email: [ACCOUNT_MESSAGES.emailTaken] }],
      ]);
      expect(await accountsOf('barbara.new@example.com')).toEqual([{ id: owner.id, email: 'barbara.new@example.com' }]);
    });

    it('a sign-up of the address, first: the sign-up is answered as one, and the change then takes its waiting account', async () => {
      const squatter = await squatted('katherine.new@example.com');
      const owner = await movingTo('katherine@example.com', 'katherine.new@example.com');
      const answers = await heldWhile(squatter.id, [
        () => signUp(t, 'katherine.new@example.com', 'Another-Lantern-45'),
        () => confirm(owner.link),
      ]);
      expect(answers).toEqual([
        [201, { id: squatter.id, email: 'katherine.new@example.com' }],
        [204, null],
      ]);
      expect(await accountsOf('katherine.new@example.com')).toEqual([
        { id: owner.id, email: 'katherine.new@example.com' },
      ]);
    });

    it('a first sign-up of the address committed while the change writes: the change runs again and takes it over', async () => {
      const owner = await movingTo('dorothy@example.com', 'dorothy.new@example.com');
      let signedUp = 0;
      const sent: Promise<LightMyRequestResponse>[] = [];
      await t.database.db.transaction(async (tx) => {
        // A sign-up's insert, not yet committed: the change's write waits on the unique index for it.
        const [row] = await tx
          .insert(users)
          .values({ email: 'Dorothy.New@example.com', passwordHash: 'x' })
          .returning();
        await tx.insert(profiles).values({ userId: row!.id });
        signedUp = row!.id;
        sent.push(confirm(owner.link).then((response) => response));
        await waitingOnLocks(t.database, 1);
      });
      expect((await Promise.all(sent)).map(answer)).toEqual([[204, null]]);
      expect(await accountRow(t, signedUp)).toBeUndefined();
      expect(await accountsOf('dorothy.new@example.com')).toEqual([{ id: owner.id, email: 'dorothy.new@example.com' }]);
    });
  },
);
