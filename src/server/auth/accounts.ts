import { and, eq } from 'drizzle-orm';
import {
  ACCOUNT_INACTIVE_CODE,
  MESSAGES,
  NON_FIELD_ERRORS,
  type CurrentUser,
  type SignupRequest,
  type TokenPair,
} from '@shared/contract';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { retryOnceOnUnique } from '../db/errors';
import { profiles, users } from '../db/schema';
import { badRequest, forbidden, unauthorized } from '../http/errors';
import { mailJob } from '../jobs/mail-kinds';
import { decodeUid, type AccountTokens } from './account-tokens';
import { hashPassword, verifyDummyPassword, verifyPassword } from './passwords';
import { passwordProblems } from './password-rules';
import {
  NO_SESSION_ROW,
  findLiveSession,
  hashToken,
  insertLoginSession,
  openLoginSession,
  revokeAllSessions,
} from './sessions';
import { EMAIL_TAKEN } from '@shared/contract/plain';
import { userByEmail } from '../db/user-by-email';
import { awaitsActivation } from './waiting-accounts';

// The account flows behind the routes: signup, login, refresh, activation, password reset.
// Messages are djoser's and SimpleJWT's, so a djoser client reads them as it always did.

export const ACCOUNT_MESSAGES = {
  emailTaken: EMAIL_TAKEN,
  passwordMismatch: "The two password fields didn't match.",
  invalidUid: "Invalid user id or user doesn't exist.",
  invalidToken: 'Invalid token for given user.',
  staleToken: 'Stale token for given user.',
} as const;

/**
 * Signs up, or signs up again for an address whose account waits for its activation link: that account
 * takes the new password, and every earlier link dies with the old one (each signs the password hash), so
 * the owner of the address who signs up is never activated with the password a stranger gave it. The same
 * password again (a form sent twice, a second tab) keeps the account as it is, earlier links included.
 * An address of an account activated, or deactivated by staff, is taken (docs/decisions/106-…).
 */
export async function signup(ctx: AppContext, body: SignupRequest) {
  const { db } = ctx.database;
  const email = body.email.trim();
  const [existing] = await db
    .select({ passwordHash: users.passwordHash, isActive: users.isActive, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(userByEmail(email))
    .limit(1);
  if (existing && (existing.isActive || existing.deactivatedAt))
    throw badRequest({ email: [ACCOUNT_MESSAGES.emailTaken] });
  const problems = passwordProblems(body.password, email);
  if (problems.length > 0) throw badRequest({ password: problems });
  if (body.password !== body.re_password) throw badRequest({ [NON_FIELD_ERRORS]: [ACCOUNT_MESSAGES.passwordMismatch] });

  const samePassword = existing !== undefined && (await verifyPassword(existing.passwordHash, body.password));
  const passwordHash = samePassword ? existing.passwordHash : await hashPassword(body.password);
  const write = () =>
    db.transaction(async (tx) => {
      // Only while it still waits: once activated (or deactivated) since it was read, the insert below is
      // refused by the unique index, as for any address taken.
      const [waiting] = await tx
        .update(users)
        .set({ email, passwordHash, updatedAt: new Date() })
        .where(and(userByEmail(email), awaitsActivation))
        .returning();
      const row = waiting ?? (await tx.insert(users).values({ email, passwordHash }).returning())[0];
      if (!row) throw new Error('user insert returned no row');
      if (!waiting) await tx.insert(profiles).values({ userId: row.id });
      // In the same transaction: an account never exists without its activation mail on the way.
      // The share page it came from rides along into the link (docs/decisions/052-…).
      const payload = { userId: row.id, ...(body.redirect ? { redirect: body.redirect } : {}) };
      await ctx.jobs.enqueue(tx, mailJob({ kind: 'mail.activation', payload }));
      return row;
    });
  // Two signups of one address at once: the unique index on lower(email) lets one insert, and the other, once
  // that one is in, signs up again over it (or finds the address taken).
  const taken = () => badRequest({ email: [ACCOUNT_MESSAGES.emailTaken] });
  const user = await retryOnceOnUnique('users_email_lower_unique', write, taken);
  ctx.jobs.wake();
  return { id: user.id, email: user.email };
}

/** Only what a login reads: on the embedded database the seven other columns cost the primary about 0.1 ms of CPU an attempt. */
async function loginAccount(db: Db, email: string) {
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(userByEmail(email))
    .limit(1);
  return user;
}

/**
 * Sends, on a fresh PostgreSQL connection, the statements of a login and of a signed-in request's session
 * check, each matching no row, so that the backend has read what they touch before a burst of logins
 * (docs/decisions/089-fresh-connections-are-warmed-before-they-serve.md). Writes nothing.
 */
export async function warmLoginStatements(db: Db): Promise<void> {
  // No account's e-mail is empty, no account's id 0, no session's id the nil UUID.
  await loginAccount(db, '');
  await insertLoginSession(db, { id: 0, passwordHash: '' }, NO_SESSION_ROW);
  await findLiveSession(db, NO_SESSION_ROW.id);
}

/**
 * `proven` runs once the password is right and the account active, beside the session's insert: on the
 * embedded database both then reach the primary as one message.
 */
export async function login(
  ctx: AppContext,
  email: string,
  password: string,
  proven: () => Promise<void>,
): Promise<TokenPair> {
  const { db } = ctx.database;
  const user = await loginAccount(db, email);
  if (!user) {
    await verifyDummyPassword(password);
    throw unauthorized(MESSAGES.badCredentials);
  }
  const passwordOk = await verifyPassword(user.passwordHash, password);
  if (!passwordOk) throw unauthorized(MESSAGES.badCredentials);
  // SimpleJWT's words either way; the code tells only someone who proved the password that the account
  // waits for activation, so the form can offer to resend the link (docs/product/accounts.md#login).
  // The password was right, so the attempt is given back: an owner waiting for the link is told why each time.
  if (!user.isActive) {
    await proven();
    throw unauthorized(MESSAGES.badCredentials, ACCOUNT_INACTIVE_CODE);
  }
  const [session] = await Promise.all([openLoginSession(db, ctx.tokens, user), proven()]);
  // The password was changed or reset, or the account deactivated or deleted, while it was checked: the
  // password typed is no longer the account's, as it would be refused a moment later.
  if (!session) throw unauthorized(MESSAGES.badCredentials);
  return { access: session.access, refresh: session.refresh };
}

/** A new access token for a live session's refresh token (no rotation: docs/product/accounts.md#token-refresh). */
export async function refreshAccess(ctx: AppContext, refresh: string): Promise<string> {
  const claims = await ctx.tokens.verify(refresh, 'refresh');
  const live = claims && (await ctx.sessions(claims.sessionId, claims.userId));
  if (!live || live.refreshTokenHash !== hashToken(refresh))
    throw unauthorized(MESSAGES.tokenNotValid, 'token_not_valid');
  return ctx.tokens.sign('access', claims.userId, claims.sessionId);
}

export async function currentUserRecord(db: Db, userId: number): Promise<CurrentUser> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    is_staff: user.isStaff,
  };
}

async function userOfUid(db: Db, uid: string) {
  const id = decodeUid(uid);
  const [user] = id === undefined ? [] : await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw badRequest({ uid: [ACCOUNT_MESSAGES.invalidUid] });
  return user;
}

/** Refuses an activation link as this state of its account answers it: 400 wrong or expired, 403 stale. */
function checkActivationLink(accountTokens: AccountTokens, user: typeof users.$inferSelect, token: string) {
  // Activation links are made for the inactive account; once active, a valid link is stale (djoser's 403).
  // A link made before a deactivation by staff is a wrong one: the token signs the deactivation time.
  // Links are made only for an account never activated, so never logged in: checked with that empty last
  // login, a link opened again after the person logged in stays stale ("already active"), not wrong.
  const verdict = accountTokens.check('activation', { ...user, isActive: false, lastLogin: null }, token);
  if (verdict !== 'valid') throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
  if (user.isActive) throw forbidden(ACCOUNT_MESSAGES.staleToken);
}

export async function activate(
  ctx: AppContext,
  accountTokens: AccountTokens,
  uid: string,
  token: string,
): Promise<void> {
  const { db } = ctx.database;
  const user = await userOfUid(db, uid);
  checkActivationLink(accountTokens, user, token);
  // Only the state the link was checked against: still waiting, with the password the link signs.
  const [activated] = await db
    .update(users)
    .set({ isActive: true, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash), awaitsActivation))
    .returning({ id: users.id });
  if (!activated) {
    // Something came first since the row was read: the same link opened at once elsewhere (403, stale), a
    // deactivation by staff or a new sign-up's password (400, wrong), a deletion (400, uid). Answered as it
    // would be a moment later, so the answer says what happened (docs/decisions/106-…).
    checkActivationLink(accountTokens, await userOfUid(db, uid), token);
    throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
  }
  await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
}

/**
 * Sends a reset link to an active account; says nothing either way (no account enumeration). The
 * request only adds a job; the look-up and the mail happen in the job, so a known and an unknown
 * address take the same time.
 */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  await ctx.jobs.enqueue(ctx.database.db, mailJob({ kind: 'mail.password-reset', payload: { email: email.trim() } }));
  ctx.jobs.wake();
}

/** The account of a reset link that works now; else the confirm's 400 (`uid` for no account, `token` otherwise). */
export async function resetLinkAccount(db: Db, accountTokens: AccountTokens, uid: string, token: string) {
  const user = await userOfUid(db, uid);
  if (accountTokens.check('reset', user, token) !== 'valid')
    throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
  return user;
}

export async function confirmPasswordReset(
  ctx: AppContext,
  accountTokens: AccountTokens,
  body: { uid: string; token: string; new_password: string; re_new_password: string },
): Promise<void> {
  const user = await resetLinkAccount(ctx.database.db, accountTokens, body.uid, body.token);
  if ((await replacePassword(ctx, user, body)) === null) throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
}

/**
 * Sets a new password over the hash the caller checked (by token or by the current password): the
 * rules, then the match, as djoser; every session ends but `keepSessionId`; a notice is mailed. Answers how many
 * live sessions ended, or null when the hash changed meanwhile, so of two changes at once the second is refused.
 */
export async function replacePassword(
  ctx: AppContext,
  user: typeof users.$inferSelect,
  body: { new_password: string; re_new_password: string },
  keepSessionId?: string,
): Promise<number | null> {
  const problems = passwordProblems(body.new_password, user.email);
  if (problems.length > 0) throw badRequest({ new_password: problems });
  if (body.new_password !== body.re_new_password)
    throw badRequest({ [NON_FIELD_ERRORS]: [ACCOUNT_MESSAGES.passwordMismatch] });

  const passwordHash = await hashPassword(body.new_password);
  const updated = await ctx.database.db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      // A change of address waiting for its link is dropped: the link signs the password hash and dies with it.
      .set({ passwordHash, pendingEmail: null, pendingEmailAt: null, updatedAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
      .returning({ id: users.id });
    if (rows.length === 0) return null;
    const ended = await revokeAllSessions(tx as unknown as Db, user.id, keepSessionId);
    // The mail says only what happened: a change made signed in only here ended no other session.
    const signedOut = !keepSessionId ? 'every device' : ended > 0 ? 'your other devices' : 'no other device';
    await ctx.jobs.enqueue(tx, mailJob({ kind: 'mail.password-changed', payload: { userId: user.id, signedOut } }));
    return ended;
  });
  if (updated === null) return null;
  ctx.jobs.wake();
  await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
  return updated;
}

/** Whether the account is still there (not deleted since its request was let in). */
export async function accountExists(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}
