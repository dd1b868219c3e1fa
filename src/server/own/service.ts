import { and, asc, count, eq, max, ne, sql } from 'drizzle-orm';
import {
  planIncludes,
  planName,
  planRaising,
  PLAN_FEATURES,
  PLAN_LIMITS,
  type PlanFeature,
  type PlanLimit,
} from '@shared/plans';
import type { SubscriptionPlan } from '@shared/constants';
import {
  leadingCharacters,
  OWN_CATEGORY_NAME_MAX,
  ownCategoryNameTaken,
  type OwnCategory,
  type PlanRequiredError,
} from '@shared/contract';
import { sessionEnded } from '../auth/authenticate';
import type { Db } from '../db/client';
import { assertPermutation, writePositions } from '../db/order';
import { displayedName, ownCategories, ownMessages, profiles, savedSubliminals, users } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/errors';
import { isUniqueViolation } from '../db/errors';
import { refuseIfChangedMeanwhile } from '../db/changed-meanwhile';
import { shareLinkOf } from './share-tokens';
import { lockUserRow } from '../db/user-lock';

// A person's own categories and messages. Every query names its owner: another person's id is
// simply not found (404), never forbidden, so ids reveal nothing.

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const LIMIT_NOUNS: Record<PlanLimit, string> = {
  ownCategories: 'categories',
  ownMessages: 'messages',
  savedSubliminals: 'saved subliminals',
};

/** The person's plan: basic while they have no profile row (one is made as the profile is first read). */
export async function planOf(db: Db | Tx, userId: number): Promise<SubscriptionPlan> {
  return (await planOfAccount(db, userId)) ?? 'basic';
}

/**
 * The plan of the person a request is for: an account deleted since the call was let in is answered as its token
 * now is (401 token_not_valid), not as a basic plan's refusal or limits. `planOf` is for the webhook and the jobs.
 */
export async function planOfSignedIn(db: Db | Tx, userId: number): Promise<SubscriptionPlan> {
  const plan = await planOfAccount(db, userId);
  if (plan === undefined) throw sessionEnded();
  return plan;
}

/** As `planOf`, in the same one read, but undefined when the account itself is gone (deleted). */
async function planOfAccount(db: Db | Tx, userId: number): Promise<SubscriptionPlan | undefined> {
  const [row] = await db
    .select({ plan: profiles.subscriptionPlan })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row && (row.plan ?? 'basic');
}

const COUNTED = { ownCategories, ownMessages, savedSubliminals } as const;

async function countOwn(db: Db | Tx, userId: number, limit: PlanLimit): Promise<number> {
  const table = COUNTED[limit];
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.userId, userId));
  return row?.n ?? 0;
}

export async function ownUsage(db: Db | Tx, userId: number): Promise<Record<PlanLimit, number>> {
  return {
    ownCategories: await countOwn(db, userId, 'ownCategories'),
    ownMessages: await countOwn(db, userId, 'ownMessages'),
    savedSubliminals: await countOwn(db, userId, 'savedSubliminals'),
  };
}

/** The features a call can be refused for, as the refusal names them. */
const FEATURE_NAMES = {
  ownMessages: 'Messages of your own are',
  savedSubliminals: 'Saving subliminals is',
  shareSubliminals: 'Sharing subliminals is',
  shareMessages: 'Sharing message sets is',
  exportMessages: 'Exporting your messages is',
  ownMusic: 'Adding your own music is',
  spokenSubliminals: 'Recording your own voice is',
} as const satisfies Partial<Record<PlanFeature, string>>;
export type GatedFeature = keyof typeof FEATURE_NAMES;

/** `403 plan_required`: what the plan lacks and the lowest plan that has it. */
export function planRequired(detail: string, plan: SubscriptionPlan): ApiError {
  const body: PlanRequiredError = { detail, code: 'plan_required', required_plan: plan };
  return new ApiError(403, body);
}

/**
 * Refuses a call whose feature the person's plan does not include (docs/product/plans.md). An account deleted
 * since the call was let in is answered as its token now is (401 token_not_valid), not as a plan without it.
 */
export async function assertFeature(db: Db | Tx, userId: number, feature: GatedFeature): Promise<void> {
  const plan = await planOfSignedIn(db, userId);
  if (planIncludes(plan, feature)) return;
  const required = PLAN_FEATURES[feature];
  throw planRequired(`${FEATURE_NAMES[feature]} part of the ${planName(required)} plan.`, required);
}

/**
 * Refuses `adding` more of `limit` past the plan's allowance (after a downgrade, what is there stays,
 * editable and deletable). Runs in the transaction that adds, with the person's row locked, so two
 * adds at once cannot both pass.
 */
export async function assertRoomFor(tx: Tx, userId: number, limit: PlanLimit, adding = 1): Promise<void> {
  await lockUserRow(tx, userId);
  const plan = await planOfSignedIn(tx, userId);
  const allowed = PLAN_LIMITS[plan][limit];
  if ((await countOwn(tx, userId, limit)) + adding <= allowed) return;
  const higher = planRaising(plan, limit);
  throw new ApiError(403, {
    detail: `Your plan keeps up to ${allowed} ${LIMIT_NOUNS[limit]} of your own. ${higher ? `The ${planName(higher)} plan keeps more.` : 'Delete one to add another.'}`,
    code: 'plan_limit',
    ...(higher && { required_plan: higher }),
  });
}

/**
 * The person's categories in order, each with its messages in order, and with its share link when
 * given the public URL the link starts with.
 */
export async function listOwnCategories(db: Db | Tx, userId: number, publicUrl?: string): Promise<OwnCategory[]> {
  const categories = await db
    .select()
    .from(ownCategories)
    .where(eq(ownCategories.userId, userId))
    .orderBy(asc(ownCategories.position), asc(ownCategories.id));
  const rows = await db
    .select()
    .from(ownMessages)
    .where(eq(ownMessages.userId, userId))
    .orderBy(asc(ownMessages.position), asc(ownMessages.id));
  return categories.map((category) => ({
    id: category.id,
    name: category.name,
    messages: rows.filter((m) => m.categoryId === category.id).map((m) => ({ id: m.id, message_text: m.messageText })),
    ...(publicUrl !== undefined && { share: shareLinkOf(publicUrl, category.shareToken) }),
  }));
}

export async function getOwnCategory(db: Db | Tx, userId: number, id: number, publicUrl: string): Promise<OwnCategory> {
  const found = (await listOwnCategories(db, userId, publicUrl)).find((category) => category.id === id);
  if (!found) throw notFound();
  return found;
}

/** The person's category whose name is this one whatever its case, as the unique index compares them (lower()). */
async function ownCategoryNamed(db: Db | Tx, userId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: ownCategories.id, name: ownCategories.name })
    .from(ownCategories)
    .where(
      and(
        eq(ownCategories.userId, userId),
        eq(displayedName(ownCategories.name), displayedName(sql`${name}`)),
        exceptId === undefined ? undefined : ne(ownCategories.id, exceptId),
      ),
    )
    .limit(1);
  return row;
}

/** The unique index on a person's category names as displayed, whatever their case (src/server/db/schema.ts). */
const OWN_CATEGORY_NAME_UNIQUE = 'own_categories_user_displayed_name_unique';

/**
 * Runs a write of a category's name; the unique index refusing it (another of the person's categories has
 * the name, whatever its case, even one written a moment before) becomes a 400 naming that one.
 */
async function withOwnName<T>(
  db: Db,
  userId: number,
  name: string,
  exceptId: number | undefined,
  write: () => Promise<T>,
) {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error, OWN_CATEGORY_NAME_UNIQUE)) throw error;
    const taken = await ownCategoryNamed(db, userId, name, exceptId);
    throw badRequest({ name: [ownCategoryNameTaken(taken?.name ?? name)] });
  }
}

/**
 * The name itself if the person has no category of it (whatever its case), else the first of "name (2)",
 * "name (3)", … that is free, shortened to stay within the limit as the migration that made the names unique
 * did (docs/decisions/055-own-category-names-are-unique-whatever-their-case.md): for a copy of a shared set.
 */
async function freeOwnCategoryName(db: Db | Tx, userId: number, name: string): Promise<string> {
  if (!(await ownCategoryNamed(db, userId, name))) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${leadingCharacters(name, OWN_CATEGORY_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
    if (!(await ownCategoryNamed(db, userId, candidate))) return candidate;
  }
}

/**
 * Adds a category at the end of the person's list, with these messages (a copy of a shared set brings
 * some): within both limits of the plan, all or nothing. A name the person has already (whatever its case) is
 * refused, or with `numbered` (a copy, whose name the person did not choose) the next free "name (2)" is taken.
 */
export async function createOwnCategory(
  db: Db,
  userId: number,
  name: string,
  texts: readonly string[] = [],
  { numbered = false, copyKey }: { numbered?: boolean; copyKey?: string | undefined } = {},
): Promise<OwnCategory> {
  if (!numbered)
    return withOwnName(db, userId, name, undefined, () => insertOwnCategory(db, userId, name, texts, 'as-given'));
  // The free name is chosen under the person's lock, which every add of theirs takes, but a rename does not:
  // one to that very name committed meanwhile makes the index refuse it. The copy is then made again with
  // every write of categories held off from choice to commit, so the name it takes then is its own.
  try {
    return await insertOwnCategory(db, userId, name, texts, 'numbered', copyKey);
  } catch (error) {
    if (!isUniqueViolation(error, OWN_CATEGORY_NAME_UNIQUE)) throw error;
  }
  return insertOwnCategory(db, userId, name, texts, 'numbered-alone', copyKey);
}

/**
 * How a new category is named: as given (the index may refuse it), the first free number, or that with every
 * other write of categories (a rename, anyone's add) waiting until this one commits.
 */
type Naming = 'as-given' | 'numbered' | 'numbered-alone';

async function insertOwnCategory(
  db: Db,
  userId: number,
  given: string,
  texts: readonly string[],
  naming: Naming,
  copyKey?: string,
): Promise<OwnCategory> {
  return db.transaction(async (tx) => {
    // The person's lock first, as every add takes it, so that an add of theirs waits here and not on the table.
    await assertRoomFor(tx, userId, 'ownCategories');
    // Writes of categories wait for this one, reads do not; taken only after a lost race (seldom).
    if (naming === 'numbered-alone') await tx.execute(sql`lock table ${ownCategories} in share row exclusive mode`);
    const name = naming === 'as-given' ? given : await freeOwnCategoryName(tx, userId, given);
    if (texts.length > 0) await assertRoomFor(tx, userId, 'ownMessages', texts.length);
    const [last] = await tx
      .select({ n: max(ownCategories.position) })
      .from(ownCategories)
      .where(eq(ownCategories.userId, userId));
    const [row] = await tx
      .insert(ownCategories)
      .values({ userId, name, position: (last?.n ?? -1) + 1, copyKey })
      .returning({ id: ownCategories.id });
    const categoryId = row!.id;
    const messages =
      texts.length === 0
        ? []
        : await tx
            .insert(ownMessages)
            .values(texts.map((messageText, position) => ({ categoryId, userId, messageText, position })))
            .returning({ id: ownMessages.id, message_text: ownMessages.messageText });
    return { id: categoryId, name, messages: messages.sort((a, b) => a.id - b.id), share: null };
  });
}

export async function renameOwnCategory(
  db: Db,
  userId: number,
  id: number,
  name: string,
  publicUrl: string,
): Promise<OwnCategory> {
  const changed = await withOwnName(db, userId, name, id, () =>
    db
      .update(ownCategories)
      .set({ name })
      .where(and(eq(ownCategories.id, id), eq(ownCategories.userId, userId)))
      .returning({ id: ownCategories.id }),
  );
  if (changed.length === 0) throw notFound();
  return getOwnCategory(db, userId, id, publicUrl);
}

export async function deleteOwnCategory(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(ownCategories)
    .where(and(eq(ownCategories.id, id), eq(ownCategories.userId, userId)))
    .returning({ id: ownCategories.id });
  if (deleted.length === 0) throw notFound();
}

/** Adds a message at the end of one of the person's categories; answers that category. */
export async function addOwnMessage(
  db: Db,
  userId: number,
  categoryId: number,
  text: string,
  publicUrl: string,
): Promise<OwnCategory> {
  return db.transaction(async (tx) => {
    const [category] = await tx
      .select({ id: ownCategories.id })
      .from(ownCategories)
      .where(and(eq(ownCategories.id, categoryId), eq(ownCategories.userId, userId)));
    if (!category) throw notFound();
    await assertRoomFor(tx, userId, 'ownMessages');
    const [last] = await tx
      .select({ n: max(ownMessages.position) })
      .from(ownMessages)
      .where(eq(ownMessages.categoryId, categoryId));
    await tx.insert(ownMessages).values({ categoryId, userId, messageText: text, position: (last?.n ?? -1) + 1 });
    return getOwnCategory(tx, userId, categoryId, publicUrl);
  });
}

/**
 * Changes a message's text; answers its category. Given the text the edit began from (`previousText`), a
 * message that reads otherwise now was changed meanwhile elsewhere: 409, and it stays as it is
 * (docs/decisions/062-an-edit-names-the-text-it-began-from.md). A message that already reads `text` (the
 * same save sent twice, or the same words written elsewhere) is no conflict.
 */
export async function editOwnMessage(
  db: Db,
  userId: number,
  id: number,
  text: string,
  publicUrl: string,
  previousText?: string,
): Promise<OwnCategory> {
  return db.transaction(async (tx) => {
    // Locked until the change commits: two edits from the same text compare in turn, and the second sees the first.
    const [message] = await tx
      .select({ categoryId: ownMessages.categoryId, text: ownMessages.messageText })
      .from(ownMessages)
      .where(and(eq(ownMessages.id, id), eq(ownMessages.userId, userId)))
      .for('update');
    if (!message) throw notFound();
    refuseIfChangedMeanwhile('message', { stored: message.text, next: text, previous: previousText });
    await tx.update(ownMessages).set({ messageText: text }).where(eq(ownMessages.id, id));
    return getOwnCategory(tx, userId, message.categoryId, publicUrl);
  });
}

export async function deleteOwnMessage(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(ownMessages)
    .where(and(eq(ownMessages.id, id), eq(ownMessages.userId, userId)))
    .returning({ id: ownMessages.id });
  if (deleted.length === 0) throw notFound();
}

/** Puts the person's categories in this order (every one of them, once). */
export async function reorderOwnCategories(
  db: Db,
  userId: number,
  ids: readonly number[],
  publicUrl: string,
): Promise<OwnCategory[]> {
  await db.transaction(async (tx) => {
    const existing = await tx
      .select({ id: ownCategories.id })
      .from(ownCategories)
      .where(eq(ownCategories.userId, userId))
      .for('update');
    assertPermutation(
      ids,
      existing.map((row) => row.id),
    );
    await writePositions(tx, ownCategories, ids);
  });
  return listOwnCategories(db, userId, publicUrl);
}

/** Puts the messages of one of the person's categories in this order (every one of them, once). */
export async function reorderOwnMessages(
  db: Db,
  userId: number,
  categoryId: number,
  ids: readonly number[],
  publicUrl: string,
): Promise<OwnCategory> {
  await db.transaction(async (tx) => {
    const [category] = await tx
      .select({ id: ownCategories.id })
      .from(ownCategories)
      .where(and(eq(ownCategories.id, categoryId), eq(ownCategories.userId, userId)))
      .for('update');
    if (!category) throw notFound();
    const existing = await tx
      .select({ id: ownMessages.id })
      .from(ownMessages)
      .where(eq(ownMessages.categoryId, categoryId));
    assertPermutation(
      ids,
      existing.map((row) => row.id),
    );
    await writePositions(tx, ownMessages, ids);
  });
  return getOwnCategory(db, userId, categoryId, publicUrl);
}
