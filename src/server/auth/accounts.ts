import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ACCOUNT_INACTIVE_CODE,
  EMAILED_PAGES,
  fillPath,
  MESSAGES,
  NON_FIELD_ERRORS,
  type CurrentUser,
  type SignupRequest,
  type TokenPair,
} from '@shared/contract';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { rethrowUniqueAs } from '../db/errors';
import { profiles, users } from '../db/schema';
import { badRequest, forbidden, unauthorized } from '../http/errors';
import { activationMail, passwordChangedMail, passwordResetMail } from '../mail/templates';
import { decodeUid, encodeUid, type AccountTokens } from './account-tokens';
import { hashPassword, verifyDummyPassword, verifyPassword } from './passwords';
import { passwordProblems } from './password-rules';
import { createSession, hashToken, revokeAllSessions } from './sessions';

// The account flows behind the routes: signup, login, refresh, activation, password reset.
// Messages are djoser's and SimpleJWT's, so a djoser client reads them as it always did.

export const ACCOUNT_MESSAGES = {
  emailTaken: 'user with this email already exists.',
  passwordMismatch: "The two password fields didn't match.",
  invalidUid: "Invalid user id or user doesn't exist.",
  invalidToken: 'Invalid token for given user.',
  staleToken: 'Stale token for given user.',
} as const;

type Log = Pick<FastifyBaseLogger, 'info' | 'error'>;

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.trim().toLowerCase());

export function activationLink(ctx: AppContext, tokens: AccountTokens, user: typeof users.$inferSelect): string {
  return `${ctx.config.publicUrl}${fillPath(EMAILED_PAGES.activation, { uid: encodeUid(user.id), token: tokens.make('activation', user) })}`;
}

export function resetLink(ctx: AppContext, tokens: AccountTokens, user: typeof users.$inferSelect): string {
  return `${ctx.config.publicUrl}${fillPath(EMAILED_PAGES.passwordReset, { uid: encodeUid(user.id), token: tokens.make('reset', user) })}`;
}

export async function signup(ctx: AppContext, accountTokens: AccountTokens, body: SignupRequest, log: Log) {
  const { db } = ctx.database;
  const email = body.email.trim();
  const [existing] = await db.select({ id: users.id }).from(users).where(byEmail(email)).limit(1);
  if (existing) throw badRequest({ email: [ACCOUNT_MESSAGES.emailTaken] });
  const problems = passwordProblems(body.password, email);
  if (problems.length > 0) throw badRequest({ password: problems });
  if (body.password !== body.re_password) throw badRequest({ [NON_FIELD_ERRORS]: [ACCOUNT_MESSAGES.passwordMismatch] });

  const passwordHash = await hashPassword(body.password);
  // Two signups of one address at once: the unique index on lower(email) decides.
  const user = await rethrowUniqueAs(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx.insert(users).values({ email, passwordHash }).returning();
        if (!row) throw new Error('user insert returned no row');
        await tx.insert(profiles).values({ userId: row.id });
        return row;
      }),
    () => badRequest({ email: [ACCOUNT_MESSAGES.emailTaken] }),
  );
  const validDays = Math.max(1, Math.round(ctx.config.tokens.activationTtlSeconds / 86_400));
  ctx.mailer.sendInBackground(activationMail(user.email, activationLink(ctx, accountTokens, user), validDays), log);
  return { id: user.id, email: user.email };
}

export async function login(ctx: AppContext, email: string, password: string): Promise<TokenPair> {
  const { db } = ctx.database;
  const [user] = await db.select().from(users).where(byEmail(email)).limit(1);
  if (!user) {
    await verifyDummyPassword(password);
    throw unauthorized(MESSAGES.badCredentials);
  }
  const passwordOk = await verifyPassword(user.passwordHash, password);
  if (!passwordOk) throw unauthorized(MESSAGES.badCredentials);
  // SimpleJWT's words either way; the code tells only someone who proved the password that the account
  // waits for activation, so the form can offer to resend the link (docs/product/accounts.md#login).
  if (!user.isActive) throw unauthorized(MESSAGES.badCredentials, ACCOUNT_INACTIVE_CODE);
  const session = await createSession(db, ctx.tokens, user.id, { recordLogin: true });
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

export async function activate(
  ctx: AppContext,
  accountTokens: AccountTokens,
  uid: string,
  token: string,
): Promise<void> {
  const { db } = ctx.database;
  const user = await userOfUid(db, uid);
  // Activation links are made for the inactive account; once active, a valid link is stale (djoser's 403).
  const verdict = accountTokens.check('activation', { ...user, isActive: false }, token);
  if (verdict !== 'valid') throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
  if (user.isActive) throw forbidden(ACCOUNT_MESSAGES.staleToken);
  await db
    .update(users)
    .set({ isActive: true, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), eq(users.isActive, false)));
  await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
}

/**
 * Sends a reset link to an active account; says nothing either way (no account enumeration). The
 * look-up and the mail happen after the answer, so a known and an unknown address take the same time.
 */
export function requestPasswordReset(ctx: AppContext, accountTokens: AccountTokens, email: string, log: Log): void {
  ctx.mailer.sendInBackground(async () => {
    const [user] = await ctx.database.db.select().from(users).where(byEmail(email)).limit(1);
    if (!user || !user.isActive) return undefined;
    const validMinutes = Math.max(1, Math.round(ctx.config.tokens.resetTtlSeconds / 60));
    return passwordResetMail(user.email, resetLink(ctx, accountTokens, user), validMinutes);
  }, log);
}

export async function confirmPasswordReset(
  ctx: AppContext,
  accountTokens: AccountTokens,
  body: { uid: string; token: string; new_password: string; re_new_password: string },
  log: Log,
): Promise<void> {
  const { db } = ctx.database;
  const user = await userOfUid(db, body.uid);
  if (accountTokens.check('reset', user, body.token) !== 'valid')
    throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
  if (!(await replacePassword(ctx, user, body, log))) throw badRequest({ token: [ACCOUNT_MESSAGES.invalidToken] });
}

/**
 * Sets a new password over the hash the caller checked (by token or by the current password): the
 * rules, then the match, as djoser; every session ends but `keepSessionId`; a notice is mailed. Answers
 * false when the hash changed meanwhile, so of two changes at once the second is refused.
 */
export async function replacePassword(
  ctx: AppContext,
  user: typeof users.$inferSelect,
  body: { new_password: string; re_new_password: string },
  log: Log,
  keepSessionId?: string,
): Promise<boolean> {
  const problems = passwordProblems(body.new_password, user.email);
  if (problems.length > 0) throw badRequest({ new_password: problems });
  if (body.new_password !== body.re_new_password)
    throw badRequest({ [NON_FIELD_ERRORS]: [ACCOUNT_MESSAGES.passwordMismatch] });

  const passwordHash = await hashPassword(body.new_password);
  const updated = await ctx.database.db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await revokeAllSessions(tx as unknown as Db, user.id, keepSessionId);
    return true;
  });
  if (!updated) return false;
  await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
  const resetPage = `${ctx.config.publicUrl}${EMAILED_PAGES.resetRequest}`;
  ctx.mailer.sendInBackground(
    passwordChangedMail(user.email, resetPage, keepSessionId ? 'your other devices' : 'every device'),
    log,
  );
  return true;
}
