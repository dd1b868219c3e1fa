import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  type PendingEmailChange,
  type SetEmailConfirmRequest,
  type SetEmailRequest,
  type SetPasswordRequest,
} from '@shared/contract';
import { deleteUser } from '../admin/users-service';
import { customerEmailJob } from '../billing/customer-email';
import { cancelSubscriptionsBeforeDeletion, cancelWhatStartedDuringDeletion } from '../billing/deletion';
import { billingAccountOf } from '../billing/service';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { retryOnceOnUnique } from '../db/errors';
import { lockUserRow } from '../db/user-lock';
import { users } from '../db/schema';
import { badRequest, nonFieldError, unauthorized } from '../http/errors';
import { mailJob } from '../jobs/mail-kinds';
import { decodeUid, type AccountTokens } from './account-tokens';
import { pendingOf } from './email-change';
import { ACCOUNT_MESSAGES, replacePassword } from './accounts';
import { verifyPassword } from './passwords';
import { revokeAllSessions, type SessionUser } from './sessions';
import { assertStillSignedIn } from './authenticate';
import { userByEmail } from '../db/user-by-email';
import { holdsItsAddress, removeWaitingAccount } from './waiting-accounts';

// What a signed-in person does with their own account, and the resend of an activation link
// (docs/product/accounts.md#self-service). Messages are djoser's where djoser has one.

export const SELF_SERVICE_MESSAGES = {
  invalidPassword: 'Invalid password.',
  sameEmail: 'This is already the e-mail address of your account.',
  emailLinkInvalid:
    'This link is no longer valid: it expired, was used already, the change was cancelled or asked for again, or the account changed since.',
  noEmailChange: 'No change of e-mail address is waiting: ask for one from your profile.',
} as const;

/**
 * Sends a new activation link to an account never activated (not to one staff deactivated); says
 * nothing either way: the job looks the address up, as the reset request's does (no account
 * enumeration, not even by timing). `redirect`: the share page its link leads back to, as a sign-up's.
 */
export async function resendActivation(ctx: AppContext, email: string, redirect?: string): Promise<void> {
  const payload = { email: email.trim(), ...(redirect ? { redirect } : {}) };
  await ctx.jobs.enqueue(ctx.database.db, mailJob({ kind: 'mail.activation', payload }));
  ctx.jobs.wake();
}

/**
 * Told once the current password is proven right, before the rest of the request is checked: only
 * wrong guesses count toward the account's limit, so a change refused for another reason (a new
 * password too common, an address taken) never locks the person out (docs/product/accounts.md).
 */
export type PasswordProven = () => Promise<void>;

/** The signed-in user's row once `password` is theirs; a wrong one is a field error, as djoser's. */
async function userWithPassword(db: Db, userId: number, password: string, proven: PasswordProven) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.passwordHash, password)))
    throw badRequest({ current_password: [SELF_SERVICE_MESSAGES.invalidPassword] });
  await proven();
  return user;
}

/**
 * Sets a new password after checking the current one. Every other session ends; the one that made the
 * change stays signed in (it just proved the password). Reset links sent before die with the old hash.
 */
export async function changePassword(
  ctx: AppContext,
  current: { userId: number; sessionId: string },
  body: SetPasswordRequest,
  proven: PasswordProven,
): Promise<number> {
  const user = await userWithPassword(ctx.database.db, current.userId, body.current_password, proven);
  const ended = await replacePassword(ctx, user, body, current.sessionId);
  if (ended === null) throw badRequest({ current_password: [SELF_SERVICE_MESSAGES.invalidPassword] });
  return ended;
}

/**
 * Ends every other session of the person at once, in every worker (a lost phone, a shared computer); the
 * one that asks stays signed in. Answers how many live sessions ended.
 */
export async function signOutOtherSessions(
  ctx: AppContext,
  current: { userId: number; sessionId: string },
  password: string,
  proven: PasswordProven,
): Promise<number> {
  await userWithPassword(ctx.database.db, current.userId, password, proven);
  const ended = await revokeAllSessions(ctx.database.db, current.userId, current.sessionId);
  // Every worker (and server) drops what it keeps of the user's sessions before the answer.
  await ctx.notices.publish({ kind: 'user-changed', userId: current.userId });
  return ended;
}

/**
 * An address held by an account active or deactivated by staff is taken; one whose account waits for its
 * activation is free, as to a sign-up: the change's link proves the person holds it (docs/decisions/110-…).
 */
const refuseTaken = async (db: Db, newEmail: string) => {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(userByEmail(newEmail), holdsItsAddress))
    .limit(1);
  if (taken) throw badRequest({ new_email: [ACCOUNT_MESSAGES.emailTaken] });
};

/**
 * Keeps the change as the one the account waits for, replacing any before it (whose links are then refused),
 * and mails a confirmation link to the new address; nothing else changes until it is opened. A taken address
 * is refused with signup's words: sign-up tells anyone as much, and here the password was proven first. An
 * address whose account waits for its activation is not taken.
 */
export async function requestEmailChange(
  ctx: AppContext,
  current: SessionUser,
  body: SetEmailRequest,
  proven: PasswordProven,
): Promise<void> {
  const { db } = ctx.database;
  const user = await userWithPassword(db, current.id, body.current_password, proven);
  const newEmail = body.new_email.trim();
  if (newEmail.toLowerCase() === user.email.toLowerCase())
    throw badRequest({ new_email: [SELF_SERVICE_MESSAGES.sameEmail] });
  await refuseTaken(db, newEmail);
  // The link is made when the mail is sent (jobs/mail-jobs.ts) and signs the request's time: no usable token
  // is stored (docs/decisions/061-…).
  await db.transaction(async (tx) => {
    // The link signs the account as it is when mailed: a password changed or reset, or a sign-out everywhere,
    // while the password was checked ends this session, and the change it asked for must not get a link that
    // the new password would sign. Asked again here, the user's row held first, as the change takes it first.
    await lockUserRow(tx, user.id);
    await assertStillSignedIn(tx, current);
    await tx.update(users).set({ pendingEmail: newEmail, pendingEmailAt: new Date() }).where(eq(users.id, user.id));
    await ctx.jobs.enqueue(tx, mailJob({ kind: 'mail.email-change', payload: { userId: user.id, newEmail } }));
  });
  ctx.jobs.wake();
}

/** The change of address the account waits for, or null. */
export async function pendingEmailChange(db: Db, userId: number): Promise<PendingEmailChange | null> {
  const [user] = await db
    .select({ pendingEmail: users.pendingEmail, pendingEmailAt: users.pendingEmailAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw unauthorized();
  return pendingOf(user);
}

/** The address the account waits for, to count a resend against before it is sent; `400` when none waits. */
export async function addressToResend(db: Db, userId: number): Promise<string> {
  const pending = await pendingEmailChange(db, userId);
  if (!pending) throw nonFieldError(SELF_SERVICE_MESSAGES.noEmailChange);
  return pending.new_email;
}

/**
 * Mails a new link for the change the account waits for (a mail lost, or expired): earlier links of the same
 * request keep working. An address taken meanwhile is refused, as a new request would be.
 */
export async function resendEmailChange(ctx: AppContext, userId: number, newEmail: string): Promise<void> {
  const { db } = ctx.database;
  await refuseTaken(db, newEmail);
  await ctx.jobs.enqueue(db, mailJob({ kind: 'mail.email-change', payload: { userId, newEmail } }));
  ctx.jobs.wake();
}

/** Makes the link's address the account's; the old address is told. Anyone holding the link may open it. */
export async function confirmEmailChange(
  ctx: AppContext,
  accountTokens: AccountTokens,
  body: SetEmailConfirmRequest,
): Promise<void> {
  const { db } = ctx.database;
  const id = decodeUid(body.uid);
  const [user] = id === undefined ? [] : await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw badRequest({ uid: [ACCOUNT_MESSAGES.invalidUid] });
  const checked = accountTokens.checkEmailChange(user, body.token);
  if (checked.verdict !== 'valid') throw badRequest({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });

  // Only over the address, password and waiting change the token was signed with (the link works once; a cancel
  // or a new request meanwhile wins), and only while the account is active (staff deactivating it meanwhile kills
  // the link): the row is held as checked, then changed. The change waits no more.
  const change = () =>
    db.transaction(async (tx) => {
      const [held] = await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.id, user.id),
            eq(users.email, user.email),
            eq(users.passwordHash, user.passwordHash),
            eq(users.isActive, true),
            eq(users.pendingEmailAt, user.pendingEmailAt!),
          ),
        )
        .for('update');
      if (!held) return false;
      // An account that waits for its activation under the new address gives it up, in this transaction: the
      // link, mailed there, proves the person holds the address. One activated or deactivated first stays, and
      // the change below is then refused by the unique index (docs/decisions/110-…).
      await removeWaitingAccount(tx, userByEmail(checked.newEmail));
      await tx
        .update(users)
        .set({ email: checked.newEmail, pendingEmail: null, pendingEmailAt: null, updatedAt: new Date() })
        .where(eq(users.id, user.id));
      // The old address is told, in the same transaction as the change.
      const payload = { userId: user.id, oldEmail: user.email, newEmail: checked.newEmail };
      await ctx.jobs.enqueue(tx, mailJob({ kind: 'mail.email-changed', payload }));
      // A Stripe customer mails receipts and invoices to the address it was given: it gets the new one.
      if (ctx.config.stripe && (await billingAccountOf(tx, user.id)))
        await ctx.jobs.enqueue(tx, customerEmailJob(user.id));
      return true;
    });
  // A sign-up of the address committed while the change ran: its account waits for activation, so the change runs
  // again and takes the address over, as a moment later; taken for good (an account activated, another change),
  // the address is refused with signup's words.
  const taken = () => badRequest({ new_email: [ACCOUNT_MESSAGES.emailTaken] });
  const changed = await retryOnceOnUnique('users_email_lower_unique', change, taken);
  if (!changed) throw badRequest({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });
  ctx.jobs.wake();
  await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
}

/**
 * Removes the account and all that is theirs, after checking the password (the admin's cascade). A password
 * changed or reset, or a sign-out everywhere, while the password was checked ended this session: asked again
 * before Stripe is told to cancel, and in the deletion's transaction, it is a 401 that cancels and deletes nothing.
 */
export async function deleteOwnAccount(
  ctx: AppContext,
  current: SessionUser,
  password: string,
  proven: PasswordProven,
  log: FastifyBaseLogger,
): Promise<void> {
  const { db } = ctx.database;
  const userId = current.id;
  await userWithPassword(db, userId, password, proven);
  await assertStillSignedIn(db, current);
  const customer = await cancelSubscriptionsBeforeDeletion(ctx, userId, log);
  const deleted = await deleteUser(db, ctx.mediaFiles, userId, log, { asked: current });
  await ctx.notices.publish({ kind: 'user-changed', userId });
  // The customer as the account went: one a Checkout in another tab made after the cancelling above is asked too.
  const customerAtDeletion = deleted?.stripeCustomerId ?? customer;
  if (customerAtDeletion) await cancelWhatStartedDuringDeletion(ctx, customerAtDeletion, userId, log);
}
