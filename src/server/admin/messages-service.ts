import { asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import {
  CATEGORY_FULL_MESSAGE,
  CATEGORY_NAMES_UNIQUE_MESSAGE,
  importPastLibraryMessage,
  LIBRARY_FULL_MESSAGE,
  LIBRARY_LIMITS,
} from '@shared/contract';
import type { AdminCategory, MessagesFile, MessagesImportResult } from '@shared/contract';
import { queryRows, type Db } from '../db/client';
import { displayedName, messageCategories, messages } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { refuseIfChangedMeanwhile } from '../db/changed-meanwhile';
import { rethrowUniqueAs } from '../db/errors';
import { assertPermutation, writePositions } from '../db/order';
import type { StaffCheck } from './media-context';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const duplicateName = () => badRequest({ name: ['message category with this name already exists.'] });
const withUniqueName = <T>(write: () => Promise<T>) =>
  rethrowUniqueAs('message_categories_displayed_name_unique', write, duplicateName);

/** Every category in order, each with its messages in order. */
export async function listCategories(db: Db | Tx): Promise<AdminCategory[]> {
  const categories = await db
    .select()
    .from(messageCategories)
    .orderBy(asc(messageCategories.position), asc(messageCategories.id));
  const rows = await db.select().from(messages).orderBy(asc(messages.position), asc(messages.id));
  return categories.map((category) => ({
    id: category.id,
    name: category.name,
    position: category.position,
    messages: rows
      .filter((m) => m.categoryId === category.id)
      .map((m) => ({ id: m.id, message_text: m.messageText, position: m.position })),
  }));
}

async function getCategory(db: Db, id: number): Promise<AdminCategory> {
  const found = (await listCategories(db)).find((c) => c.id === id);
  if (!found) throw notFound();
  return found;
}

export async function createCategory(db: Db, name: string): Promise<AdminCategory> {
  const id = await withUniqueName(() =>
    db.transaction(async (tx) => {
      // One create or import at a time, so two cannot both take the library's last place.
      await tx.execute(sql`lock table ${messageCategories} in share row exclusive mode`);
      const [held] = await tx.select({ n: count() }).from(messageCategories);
      if ((held?.n ?? 0) >= LIBRARY_LIMITS.categories) throw badRequest({ non_field_errors: [LIBRARY_FULL_MESSAGE] });
      const [last] = await tx.select({ n: max(messageCategories.position) }).from(messageCategories);
      const [row] = await tx
        .insert(messageCategories)
        .values({ name, position: (last?.n ?? -1) + 1 })
        .returning({ id: messageCategories.id });
      if (!row) throw new Error('category insert returned no row');
      return row.id;
    }),
  );
  return getCategory(db, id);
}

/**
 * Renames a category; answers it. Given the name the rename began from (`previousName`), a category named otherwise
 * now is refused 409 and keeps its name, as a message's edit is (docs/decisions/084-a-staff-edit-of-a-name-names-the-name-it-began-from.md).
 */
export async function renameCategory(db: Db, id: number, name: string, previousName?: string): Promise<AdminCategory> {
  await withUniqueName(() =>
    db.transaction(async (tx) => {
      // Locked until the rename commits: two renames from one name compare in turn, and the second sees the first.
      const [category] = await tx
        .select({ name: messageCategories.name })
        .from(messageCategories)
        .where(eq(messageCategories.id, id))
        .for('update');
      if (!category) throw notFound();
      refuseIfChangedMeanwhile('name', { stored: category.name, next: name, previous: previousName });
      await tx.update(messageCategories).set({ name }).where(eq(messageCategories.id, id));
    }),
  );
  return getCategory(db, id);
}

/** Deletes the category and (by cascade) its messages. */
export async function deleteCategory(db: Db, id: number): Promise<void> {
  const deleted = await db
    .delete(messageCategories)
    .where(eq(messageCategories.id, id))
    .returning({ id: messageCategories.id });
  if (!deleted.length) throw notFound();
}

export async function reorderCategories(db: Db, ids: readonly number[]): Promise<AdminCategory[]> {
  await db.transaction(async (tx) => {
    const existing = await tx.select({ id: messageCategories.id }).from(messageCategories).for('update');
    assertPermutation(
      ids,
      existing.map((r) => r.id),
    );
    await writePositions(tx, messageCategories, ids);
  });
  return listCategories(db);
}

export async function addMessage(db: Db, categoryId: number, text: string): Promise<AdminCategory> {
  await db.transaction(async (tx) => {
    const [category] = await tx
      .select({ id: messageCategories.id })
      .from(messageCategories)
      .where(eq(messageCategories.id, categoryId))
      .for('update');
    if (!category) throw notFound();
    // The category's row is held: another add to it waits, then counts this one.
    const [last] = await tx
      .select({ n: max(messages.position), held: count() })
      .from(messages)
      .where(eq(messages.categoryId, categoryId));
    if ((last?.held ?? 0) >= LIBRARY_LIMITS.messagesPerCategory)
      throw badRequest({ non_field_errors: [CATEGORY_FULL_MESSAGE] });
    await tx.insert(messages).values({ categoryId, messageText: text, position: (last?.n ?? -1) + 1 });
  });
  return getCategory(db, categoryId);
}

/**
 * Changes a message's text; answers its category. Given the text the edit began from (`previousText`), a message that
 * reads otherwise now was changed meanwhile (another tab, another staff member): 409, and it stays as it is. One that
 * already reads `text` is no conflict (docs/decisions/083-a-staff-edit-names-the-text-it-began-from.md).
 */
export async function editMessage(db: Db, id: number, text: string, previousText?: string): Promise<AdminCategory> {
  const categoryId = await db.transaction(async (tx) => {
    // Locked until the change commits: two edits from the same text compare in turn, and the second sees the first.
    const [message] = await tx
      .select({ categoryId: messages.categoryId, text: messages.messageText })
      .from(messages)
      .where(eq(messages.id, id))
      .for('update');
    if (!message) throw notFound();
    refuseIfChangedMeanwhile('message', { stored: message.text, next: text, previous: previousText });
    await tx.update(messages).set({ messageText: text }).where(eq(messages.id, id));
    return message.categoryId;
  });
  return getCategory(db, categoryId);
}

export async function deleteMessage(db: Db, id: number): Promise<void> {
  const deleted = await db.delete(messages).where(eq(messages.id, id)).returning({ id: messages.id });
  if (!deleted.length) throw notFound();
}

export async function reorderMessages(db: Db, categoryId: number, ids: readonly number[]): Promise<AdminCategory> {
  await db.transaction(async (tx) => {
    const [category] = await tx
      .select({ id: messageCategories.id })
      .from(messageCategories)
      .where(eq(messageCategories.id, categoryId))
      .for('update');
    if (!category) throw notFound();
    const existing = await tx.select({ id: messages.id }).from(messages).where(eq(messages.categoryId, categoryId));
    assertPermutation(
      ids,
      existing.map((r) => r.id),
    );
    await writePositions(tx, messages, ids);
  });
  return getCategory(db, categoryId);
}

/**
 * The import/export file: every category with messages, in order. One without any (created, not filled yet) is
 * left out: it has nothing to restore, and an import refuses it (docs/product/content.md#admin-screens).
 */
export async function exportMessages(db: Db): Promise<MessagesFile> {
  const categories = await listCategories(db);
  return {
    categories: categories
      .filter((c) => c.messages.length > 0)
      .map((c) => ({ name: c.name, messages: c.messages.map((m) => m.message_text) })),
  };
}

/**
 * Rows per statement of an import: a statement stays small to build (drizzle builds it recursively: tens of
 * thousands of rows overflowed the stack), and the whole import is a few statements per 500 rows
 * rather than a few per category.
 */
const IMPORT_BATCH_ROWS = 500;

const batches = <T>(rows: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(rows.length / IMPORT_BATCH_ROWS) }, (_, i) =>
    rows.slice(i * IMPORT_BATCH_ROWS, (i + 1) * IMPORT_BATCH_ROWS),
  );

/**
 * The names as the unique index compares them (what is drawn, in lower case by the database's rules, not
 * JavaScript's), in the order given.
 */
async function nameKeys(tx: Tx, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const values = sql.join(
    names.map((name, i) => sql`(${sql.raw(String(i))}, ${name}::text)`),
    sql`, `,
  );
  const rows = await queryRows<{ key: string }>(
    tx as unknown as Db,
    sql`select ${displayedName(sql`name`)} as key from (values ${values}) as file(i, name) order by i`,
  );
  return rows.map((row) => row.key);
}

/**
 * Imports a file in one transaction (all or nothing; its size is bounded by messagesFileSchema): a
 * category named in the file, whatever the case of its name, has its messages replaced by the file's and
 * keeps its place and name; one the file names for the first time goes last, as a category created by hand
 * does, in the file's order. Categories the file does not name stay as they are. `assertImporter` asks, in
 * that transaction, whether the staff member who sent the file still may (the CLI passes none).
 */
export async function importMessages(
  db: Db,
  file: MessagesFile,
  assertImporter?: StaffCheck,
): Promise<MessagesImportResult> {
  return db.transaction(async (tx) => {
    await assertImporter?.(tx);
    // No category is created, renamed or deleted meanwhile (reads go on): one created while the file
    // was being matched by name would make its insert break the unique name (a 500). A create that
    // came first is waited for and its category merged; one that comes after waits, then finds the
    // name taken (400).
    await tx.execute(sql`lock table ${messageCategories} in share row exclusive mode`);
    const existing = await tx
      .select({ id: messageCategories.id, key: sql<string>`${displayedName(messageCategories.name)}` })
      .from(messageCategories)
      .orderBy(asc(messageCategories.position), asc(messageCategories.id))
      .for('update');
    const byKey = new Map(existing.map((c) => [c.key, c.id]));
    const keys = await nameKeys(
      tx,
      file.categories.map((c) => c.name),
    );
    // The contract compares names with JavaScript's case rules; two the database takes for one (by case, or by what is
    // drawn as nothing in them) are one too.
    if (new Set(keys).size !== keys.length) throw badRequest({ categories: [CATEGORY_NAMES_UNIQUE_MESSAGE] });
    const replaced = keys.flatMap((key) => byKey.get(key) ?? []);
    for (const ids of batches(replaced)) await tx.delete(messages).where(inArray(messages.categoryId, ids));
    const newNames = file.categories.filter((_, i) => !byKey.has(keys[i]!)).map((c) => c.name);
    if (existing.length + newNames.length > LIBRARY_LIMITS.categories)
      throw badRequest({ categories: [importPastLibraryMessage(existing.length + newNames.length)] });
    const [last] = await tx.select({ n: max(messageCategories.position) }).from(messageCategories);
    const firstNew = (last?.n ?? -1) + 1;
    for (const [batch, names] of batches(newNames).entries()) {
      const rows = await tx
        .insert(messageCategories)
        .values(names.map((name, i) => ({ name, position: firstNew + batch * IMPORT_BATCH_ROWS + i })))
        .returning({ id: messageCategories.id, key: sql<string>`${displayedName(messageCategories.name)}` });
      for (const row of rows) byKey.set(row.key, row.id);
    }
    const idOf = (key: string) => {
      const id = byKey.get(key);
      if (id === undefined) throw new Error(`category insert returned no row for ${key}`);
      return id;
    };
    const rows = file.categories.flatMap((category, i) =>
      category.messages.map((text, position) => ({ categoryId: idOf(keys[i]!), messageText: text, position })),
    );
    for (const batch of batches(rows)) await tx.insert(messages).values(batch);
    return { categories_created: newNames.length, categories_updated: replaced.length, messages: rows.length };
  });
}
