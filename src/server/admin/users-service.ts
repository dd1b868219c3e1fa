import { and, asc, desc, eq, gt, ilike, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ADMIN_USER_PAGE_SIZE,
  emailField,
  type AdminUser,
  type AdminUserList,
  type AdminUserQueryChecked,
  type AdminUserUpdate,
  type UserAttentionReason,
} from '@shared/contract';
import { isolated } from '@shared/contract/plain';
import type { SubscriptionPlan } from '@shared/constants';
import type { Db } from '../db/client';
import { billingAccounts, duplicateSubscriptions, ownTracks, profiles, users, voiceRecordings } from '../db/schema';
import { adminBilling, secondSubscriptionsForStaff, type BillingColumns, type Tx } from '../billing/service';
import { badRequest, notFound } from '../http/errors';
import { hashPassword } from '../auth/passwords';
import { passwordProblems } from '../auth/password-rules';
import { isUniqueViolation } from '../db/errors';
import { revokeAllSessions, type SessionUser } from '../auth/sessions';
import { assertStillSignedIn } from '../auth/authenticate';
import { cancelEmailChange, pendingOf } from '../auth/email-change';
import { releaseAfterCommit, type MediaStore } from '../media/store';
import { userByEmail } from '../db/user-by-email';

/**
 * Why a user's billing needs staff (USER_ATTENTION_REASONS, docs/product/api.md#users), as conditions on a user
 * row joined with its billing row: the list's filter and each user's `attention` are these same expressions.
 */
const attentionConditions: Record<UserAttentionReason, SQL> = {
  // adminBilling's past_due: the subscription's status, on a billing row (which always has its customer).
  payment_failed: sql`coalesce(${billingAccounts.subscriptionStatus} = 'past_due', false)`,
  // What secondSubscriptionsForStaff lists first: one still to settle (being refunded, or refused by Stripe).
  second_subscription: sql`exists (select 1 from ${duplicateSubscriptions} where ${duplicateSubscriptions.userId} = ${users.id} and ${duplicateSubscriptions.settledAt} is null)`,
  // Stripe keeps charging someone who cannot sign in: a subscription that can charge and is not set to stop.
  deactivated_billing: sql`(not ${users.isActive} and coalesce(${billingAccounts.subscriptionStatus} in ('active', 'trialing', 'past_due') and not ${billingAccounts.cancelAtPeriodEnd} and ${billingAccounts.cancelAt} is null, false))`,
};
const attentionReasons = Object.keys(attentionConditions) as UserAttentionReason[];
const needsAttention = or(...Object.values(attentionConditions))!;

const userColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  isStaff: users.isStaff,
  plan: profiles.subscriptionPlan,
  createdAt: users.createdAt,
  lastLogin: users.lastLogin,
  deactivatedAt: users.deactivatedAt,
  pendingEmail: users.pendingEmail,
  pendingEmailAt: users.pendingEmailAt,
  billing: {
    stripeCustomerId: billingAccounts.stripeCustomerId,
    stripeSubscriptionId: billingAccounts.stripeSubscriptionId,
    subscriptionStatus: billingAccounts.subscriptionStatus,
    currentPeriodEnd: billingAccounts.currentPeriodEnd,
    cancelAtPeriodEnd: billingAccounts.cancelAtPeriodEnd,
  },
  attention: Object.fromEntries(
    attentionReasons.map((reason) => [reason, attentionConditions[reason].mapWith(Boolean)]),
  ) as Record<UserAttentionReason, SQL<boolean>>,
};

interface UserRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  isStaff: boolean;
  plan: SubscriptionPlan | null;
  createdAt: Date;
  lastLogin: Date | null;
  deactivatedAt: Date | null;
  pendingEmail: string | null;
  pendingEmailAt: Date | null;
  billing: BillingColumns | null;
  attention: Record<UserAttentionReason, boolean>;
}

const toAdminUser = (row: UserRow, seconds: Awaited<ReturnType<typeof secondSubscriptionsForStaff>>): AdminUser => ({
  id: row.id,
  email: row.email,
  first_name: row.firstName,
  last_name: row.lastName,
  is_active: row.isActive,
  is_staff: row.isStaff,
  // A user whose profile was never created has the default plan.
  subscription_plan: row.plan ?? 'basic',
  date_joined: row.createdAt.toISOString(),
  last_login: row.lastLogin?.toISOString() ?? null,
  deactivated_at: row.deactivatedAt?.toISOString() ?? null,
  billing: adminBilling(row.billing, seconds.get(row.id)),
  attention: attentionReasons.filter((reason) => row.attention[reason]),
  pending_email_change: pendingOf(row),
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface UserListQuery {
  /** Part of the e-mail or of the name ("first last"), any case. */
  search?: string | undefined;
  /** From 1. */
  page?: number | undefined;
  /** Only users whose billing needs staff. */
  attention?: boolean | undefined;
  /** Only users up to this id (the first page's `newest_id`): later sign-ups do not shift the pages. */
  newestId?: number | undefined;
  /** The page after one that ended with this user: those older than it (then `page` is only a number). */
  afterId?: number | undefined;
  /** The page before one that began with this user: the page's worth newer than it. */
  beforeId?: number | undefined;
}

/**
 * One page of the users whose e-mail or name contains `search` (any case), newest first (the latest sign-up
 * first, as ids are given), only those needing attention when asked; a page past the last is empty. The pages
 * hold the users up to `newestId` (by default the latest sign-up, which the answer gives for the next pages):
 * an offset alone would move a row to the next page at each sign-up, shown twice or missed.
 */
export async function listUsers(
  db: Db,
  { search = '', page = 1, attention = false, newestId, afterId, beforeId }: UserListQuery = {},
): Promise<AdminUserList> {
  const pattern = `%${escapeLike(search)}%`;
  const matching = and(
    search
      ? or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern))
      : undefined,
    attention ? needsAttention : undefined,
  );
  // The counts and the bound in one pass over the users, so the page read after them agrees with them.
  const [counts] = await db
    .select({
      newest: sql<number | null>`max(${users.id})`.mapWith((value) => (value === null ? null : Number(value))),
      needsAttention: sql<number>`count(*) filter (where ${needsAttention})`.mapWith(Number),
      ...(newestId === undefined
        ? { count: sql<number>`count(*) filter (where ${matching ?? sql`true`})`.mapWith(Number) }
        : {
            count: sql<number>`count(*) filter (where ${and(matching, lte(users.id, newestId))})`.mapWith(Number),
            newer: sql<number>`count(*) filter (where ${and(matching, gt(users.id, newestId))})`.mapWith(Number),
          }),
    })
    .from(users)
    .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id));
  const total = counts?.count ?? 0;
  const bound = newestId ?? counts?.newest ?? null;
  const offset = (page - 1) * ADMIN_USER_PAGE_SIZE;
  const pageOf = (bounded: SQL | undefined, where: SQL | undefined, order: SQL) =>
    db
      .select(userColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
      .where(and(matching, bounded, where))
      .orderBy(order)
      .limit(ADMIN_USER_PAGE_SIZE);
  // Next to a page shown, the page is found from its last (or first) user, where an offset would move by
  // one for each user deleted meanwhile on the pages before, and skip someone.
  const bounded = bound === null ? undefined : lte(users.id, bound);
  const rows =
    bound === null
      ? []
      : afterId !== undefined
        ? await pageOf(bounded, lt(users.id, afterId), desc(users.id))
        : beforeId !== undefined
          ? (await pageOf(bounded, gt(users.id, beforeId), asc(users.id))).reverse()
          : offset < total
            ? await pageOf(bounded, undefined, desc(users.id)).offset(offset)
            : [];
  const seconds = await secondSubscriptionsForStaff(
    db,
    rows.map((row) => row.id),
  );
  return {
    results: rows.map((row) => toAdminUser(row, seconds)),
    count: total,
    needs_attention: counts?.needsAttention ?? 0,
    newest_id: bound,
    newer: counts && 'newer' in counts ? counts.newer : 0,
    ...(await pageNumbers(db, and(matching, bounded), rows, total)),
  };
}

/**
 * Where a page of the list is, counted from its own rows (docs/decisions/053-staff-lists-page-from-the-rows-shown.md):
 * after a deletion a page read from a cursor starts between two pages of 50, and a number counted by the
 * client (the page before's plus one) would say "Page 3" where Previous reaches the first page in one step.
 */
async function pageNumbers(
  db: Db,
  listed: SQL | undefined,
  rows: ReadonlyArray<{ id: number }>,
  total: number,
): Promise<Pick<AdminUserList, 'offset' | 'page' | 'pages'>> {
  const pagesOf = (users: number) => Math.ceil(users / ADMIN_USER_PAGE_SIZE);
  if (!rows.length) return { offset: total, page: pagesOf(total) + 1, pages: Math.max(1, pagesOf(total)) };
  const [edges] = await db
    .select({
      before: sql<number>`count(*) filter (where ${gt(users.id, rows[0]!.id)})`.mapWith(Number),
      after: sql<number>`count(*) filter (where ${lt(users.id, rows.at(-1)!.id)})`.mapWith(Number),
    })
    .from(users)
    .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
    .where(listed);
  const offset = edges?.before ?? 0;
  const page = pagesOf(offset) + 1;
  return { offset, page, pages: page + pagesOf(edges?.after ?? 0) };
}

/** The list for a query as the contract checks it: the API's route and the CLI's list-users ask this way. */
export const listUsersFor = (db: Db, query: AdminUserQueryChecked) =>
  listUsers(db, {
    search: query.search,
    page: query.page,
    attention: query.attention === 'true',
    newestId: query.newest_id,
    afterId: query.after_id,
    beforeId: query.before_id,
  });

export async function getUser(db: Db, id: number): Promise<AdminUser> {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
    .where(eq(users.id, id));
  if (!row) throw notFound();
  return toAdminUser(row, await secondSubscriptionsForStaff(db, [row.id]));
}

/** The user with this e-mail (any case), or a 404 naming it. */
export async function findUserIdByEmail(db: Db, email: string): Promise<number> {
  const [row] = await db.select({ id: users.id }).from(users).where(userByEmail(email));
  if (!row) throw notFound(`No user with the e-mail ${isolated(email.trim())}.`);
  return row.id;
}

/** Sets the plan and/or the active flag; staff cannot deactivate themselves (they would lock themselves out). */
/** `planSet`: what else a plan set must do, in its transaction (the admin API queues its Checkout pages' expiry). */
export async function updateUser(
  db: Db,
  id: number,
  update: AdminUserUpdate,
  { actingUserId, planSet }: { actingUserId?: number; planSet?: ((tx: Tx) => Promise<unknown>) | undefined } = {},
): Promise<AdminUser> {
  if (update.is_active === false && id === actingUserId) {
    throw badRequest({ is_active: ['You cannot deactivate your own account.'] });
  }
  await db.transaction(async (tx) => {
    // The profile's row, then the user's, as the person's own save of the profile and deleting the account take
    // them: in the other order, a save at the same moment and this change each waited for the other (a 500).
    await tx.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, id)).for('update');
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    if (!user) throw notFound();
    if (update.is_active !== undefined) {
      const now = new Date();
      // A deactivation is recorded and kept through a reactivation: the account gets no activation link
      // while inactive, and links made before it stay dead (docs/product/accounts.md#inactive-accounts).
      // A change of address waiting for its link is dropped with the links.
      const deactivation = update.is_active ? {} : { deactivatedAt: now, pendingEmail: null, pendingEmailAt: null };
      await tx
        .update(users)
        .set({ isActive: update.is_active, ...deactivation, updatedAt: now })
        .where(eq(users.id, id));
      // Ended for good: reactivating the account must not bring its old tokens back to life.
      if (!update.is_active) await revokeAllSessions(tx as unknown as Db, id);
    }
    if (update.subscription_plan !== undefined) {
      await tx
        .insert(profiles)
        .values({ userId: id, subscriptionPlan: update.subscription_plan })
        .onConflictDoUpdate({
          target: profiles.userId,
          set: { subscriptionPlan: update.subscription_plan, updatedAt: new Date() },
        });
      await planSet?.(tx);
    }
  });
  return getUser(db, id);
}

/**
 * Drops the change of e-mail address the user waits for, as their own cancel does: its links are refused from
 * then on (docs/decisions/061-a-change-of-address-waits-in-the-account.md). Nothing waiting is no error.
 */
export async function cancelUserEmailChange(db: Db, id: number): Promise<AdminUser> {
  if (!(await cancelEmailChange(db, id))) throw notFound();
  return getUser(db, id);
}

export interface NewStaff {
  email: string;
  password: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** An active staff user with a profile, ready to sign in. */
export async function createStaffUser(db: Db, input: NewStaff): Promise<AdminUser> {
  const email = emailField().safeParse(input.email);
  if (!email.success) throw badRequest({ email: email.error.issues.map((i) => i.message) });
  const problems = passwordProblems(input.password, email.data);
  if (problems.length) throw badRequest({ password: problems });
  const passwordHash = await hashPassword(input.password);
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          email: email.data,
          passwordHash,
          firstName: input.firstName?.trim() ?? '',
          lastName: input.lastName?.trim() ?? '',
          isActive: true,
          isStaff: true,
        })
        .returning({ id: users.id });
      if (!row) throw new Error('user insert returned no row');
      await tx.insert(profiles).values({ userId: row.id });
      return row.id;
    });
    return getUser(db, id);
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_lower_unique'))
      throw badRequest({ email: ['user with this email already exists.'] });
    throw error;
  }
}

/**
 * Removes a user and everything that is theirs: the row's foreign keys cascade to sessions, profile,
 * own categories and messages and the player's state (src/server/db/schema.ts); files only they
 * referenced (the profile image, their own music and voice) are removed after the commit. Answers undefined when
 * there was no such user, else the Stripe customer the account had as it went (null without one): a Checkout opened
 * in another tab may have made it after anything was cancelled. Whoever calls it announces `user-changed`, so every
 * worker forgets the user's sessions. `asked`: the session of a person deleting their own account, asked again once
 * their row is held (a 401 deletes nothing if it ended).
 */
export async function deleteUser(
  db: Db,
  media: MediaStore,
  id: number,
  log: Pick<FastifyBaseLogger, 'error'>,
  options: { asked?: SessionUser } = {},
): Promise<{ stripeCustomerId: string | null } | undefined> {
  const deleted = await db.transaction(async (tx) => {
    // The billing row first, as a Stripe event applying at the same moment takes it before the profile:
    // in the other order, each waited for the other (PostgreSQL's "deadlock detected", a 500).
    const [billing] = await tx
      .select({ stripeCustomerId: billingAccounts.stripeCustomerId })
      .from(billingAccounts)
      .where(eq(billingAccounts.userId, id))
      .for('update');
    const [profile] = await tx
      .select({ image: profiles.profileImage })
      .from(profiles)
      .where(eq(profiles.userId, id))
      .for('update');
    // Then the user's row, which an upload of theirs holds while it adds a file (lockUserRow): one under
    // way is either listed below, its file removed with the others, or finds the account gone.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    // A password changed or reset, or a sign-out everywhere, while the person's password was checked ended the
    // session that asked: it deletes nothing. The change holds this row first, so it is seen here once done.
    if (options.asked) await assertStillSignedIn(tx, options.asked);
    const music = await tx.select({ file: ownTracks.audioFile }).from(ownTracks).where(eq(ownTracks.userId, id));
    const voice = await tx
      .select({ file: voiceRecordings.audioFile })
      .from(voiceRecordings)
      .where(eq(voiceRecordings.userId, id));
    const removed = await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    if (removed.length === 0) return undefined;
    const files = [profile?.image, ...[...music, ...voice].map((row) => row.file)];
    return { files, stripeCustomerId: billing?.stripeCustomerId ?? null };
  });
  if (!deleted) return undefined;
  await releaseAfterCommit(db, media, deleted.files, log);
  return { stripeCustomerId: deleted.stripeCustomerId };
}
