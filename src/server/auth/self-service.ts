import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  EMAILED_PAGES,
  fillPath,
  type SetEmailConfirmRequest,
  type SetEmailRequest,
  type SetPasswordRequest,
} from '@shared/contract';
import { deleteUser } from '../admin/users-service';
import { cancelSubscriptionBeforeDeletion } from '../billing/service';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { rethrowUniqueAs } from '../db/errors';
import { users } from '../db/schema';
import { badRequest, unauthorized } from '../http/errors';
import { activationMail, emailChangedMail, emailChangeMail } from '../mail/templates';
import { decodeUid, encodeUid, type AccountTokens } from './account-tokens';
import { ACCOUNT_MESSAGES, activationLink, replacePassword } from './accounts';
import { verifyPassword } from './passwords';

// What a signed-in person does with their own account, and the resend of an activation link
// (docs/product/accounts.md#self-service). Messages are djoser's where djoser has one.

export const SELF_SERVICE_MESSAGES = {
  invalidPassword: 'Invalid password.',
  sameEmail: 'This is already the e-mail address of your account.',
  emailLinkInvalid: 'This link is no longer valid: it expired, was used already, or the account changed since.',
} as const;

type Log = Pick<FastifyBaseLogger, 'info' | 'error'>;

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.trim().toLowerCase());
const validDays = (seconds: number) => Math.max(1, Math.round(seconds / 86_400));

/**
 * Sends a new activation link to an account that is not active yet; says nothing either way, and
 * looks up after the answer, as the reset request does (no account enumeration, not even by timing).
 */
export function resendActivation(ctx: AppContext, accountTokens: AccountTokens, email: string, log: Log): void {
  ctx.mailer.sendInBackground(async () => {
    const [user] = await ctx.database.db.select().from(users).where(byEmail(email)).limit(1);
    if (!user || user.isActive) return undefined;
    const days = validDays(ctx.config.tokens.activationTtlSeconds);
    return activationMail(user.email, activationLink(ctx, accountTokens, user), days);
  }, log);
}

/** The signed-in user's row once `password` is theirs; a wrong one is a field error, as djoser's. */
async function userWithPassword(db: Db, userId: number, password: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.passwordHash, password)))
    throw badRequest({ current_password: [SELF_SERVICE_MESSAGES.invalidPassword] });
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
  log: Log,
): Promise<void> {
  const user = await userWithPassword(ctx.database.db, current.userId, body.current_password);
  if (!(await replacePassword(ctx, user, body, log, current.sessionId)))
    throw badRequest({ current_password: [SELF_SERVICE_MESSAGES.invalidPassword] });
}

/**
 * Mails a confirmation link to the new address; nothing changes until it is opened. A taken address is
 * refused with signup's words: sign-up tells anyone as much, and here the password was proven first.
 */
export async function requestEmailChange(
  ctx: AppContext,
  accountTokens: AccountTokens,
  userId: number,
  body: SetEmailRequest,
  log: Log,
): Promise<void> {
  const { db } = ctx.database;
  const user = await userWithPassword(db, userId, body.current_password);
  const newEmail = body.new_email.trim();
  if (newEmail.toLowerCase() === user.email.toLowerCase())
    throw badRequest({ new_email: [SELF_SERVICE_MESSAGES.sameEmail] });
  const [taken] = await db.select({ id: users.id }).from(users).where(byEmail(newEmail)).limit(1);
  if (taken) throw badRequest({ new_email: [ACCOUNT_MESSAGES.emailTaken] });
  const link = `${ctx.config.publicUrl}${fillPath(EMAILED_PAGES.emailChange, {
    uid: encodeUid(user.id),
    token: accountTokens.makeEmailChange(user, newEmail),
  })}`;
  ctx.mailer.sendInBackground(emailChangeMail(newEmail, link, validDays(ctx.config.tokens.activationTtlSeconds)), log);
}

/** Makes the link's address the account's; the old address is told. Anyone holding the link may open it. */
export async function confirmEmailChange(
  ctx: AppContext,
  accountTokens: AccountTokens,
  body: SetEmailConfirmRequest,
  log: Log,
): Promise<void> {
  const { db } = ctx.database;
  const id = decodeUid(body.uid);
  const [user] = id === undefined ? [] : await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw badRequest({ uid: [ACCOUNT_MESSAGES.invalidUid] });
  const checked = accountTokens.checkEmailChange(user, body.token);
  if (checked.verdict !== 'valid') throw badRequest({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });

  const taken = () => badRequest({ new_email: [ACCOUNT_MESSAGES.emailTaken] });
  const changed = await rethrowUniqueAs(async () => {
    // Only over the address and password the token was signed with: the link works once.
    const rows = await db
      .update(users)
      .set({ email: checked.newEmail, updatedAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.email, user.email), eq(users.passwordHash, user.passwordHash)))
      .returning({ id: users.id });
    return rows.length > 0;
  }, taken);
  if (!changed) throw badRequest({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });
  await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
  ctx.mailer.sendInBackground(
    emailChangedMail(user.email, checked.newEmail, `${ctx.config.publicUrl}/portal/home/`),
    log,
  );
}

/** Removes the account and all that is theirs, after checking the password (the admin's cascade). */
export async function deleteOwnAccount(ctx: AppContext, userId: number, password: string): Promise<void> {
  await userWithPassword(ctx.database.db, userId, password);
  await cancelSubscriptionBeforeDeletion(ctx, userId);
  await deleteUser(ctx.database.db, ctx.mediaFiles, userId);
  await ctx.notices.publish({ kind: 'user-changed', userId });
}
