import { asc, eq, max } from 'drizzle-orm';
import type { AdminCategory, MessagesFile, MessagesImportResult } from '@shared/contract';
import type { Db } from '../db/client';
import { messageCategories, messages } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { rethrowUniqueAs } from '../db/errors';
import { assertPermutation } from '../db/order';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const duplicateName = () => badRequest({ name: ['message category with this name already exists.'] });
const withUniqueName = <T>(write: () => Promise<T>) => rethrowUniqueAs(write, duplicateName);

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

export async function renameCategory(db: Db, id: number, name: string): Promise<AdminCategory> {
  const updated = await withUniqueName(() =>
    db
      .update(messageCategories)
      .set({ name })
      .where(eq(messageCategories.id, id))
      .returning({ id: messageCategories.id }),
  );
  if (!updated.length) throw notFound();
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
    for (const [position, id] of ids.entries()) {
      await tx.update(messageCategories).set({ position }).where(eq(messageCategories.id, id));
    }
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
    const [last] = await tx
      .select({ n: max(messages.position) })
      .from(messages)
      .where(eq(messages.categoryId, categoryId));
    await tx.insert(messages).values({ categoryId, messageText: text, position: (last?.n ?? -1) + 1 });
  });
  return getCategory(db, categoryId);
}

export async function editMessage(db: Db, id: number, text: string): Promise<AdminCategory> {
  const [row] = await db
    .update(messages)
    .set({ messageText: text })
    .where(eq(messages.id, id))
    .returning({ categoryId: messages.categoryId });
  if (!row) throw notFound();
  return getCategory(db, row.categoryId);
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
    for (const [position, id] of ids.entries()) {
      await tx.update(messages).set({ position }).where(eq(messages.id, id));
    }
  });
  return getCategory(db, categoryId);
}

/** The import/export file of every category, in order. */
export async function exportMessages(db: Db): Promise<MessagesFile> {
  const categories = await listCategories(db);
  return { categories: categories.map((c) => ({ name: c.name, messages: c.messages.map((m) => m.message_text) })) };
}

/**
 * Imports a file in one transaction: a category named in the file is created, or has its messages
 * replaced by the file's; categories the file does not name stay as they are. Categories of the file
 * come first, in the file's order.
 */
export async function importMessages(db: Db, file: MessagesFile): Promise<MessagesImportResult> {
  return db.transaction(async (tx) => {
    const existing = await tx
      .select()
      .from(messageCategories)
      .orderBy(asc(messageCategories.position), asc(messageCategories.id))
      .for('update');
    const byName = new Map(existing.map((c) => [c.name, c.id]));
    let created = 0;
    let updated = 0;
    let messageCount = 0;
    const orderedIds: number[] = [];
    for (const category of file.categories) {
      let id = byName.get(category.name);
      if (id === undefined) {
        const [row] = await tx
          .insert(messageCategories)
          .values({ name: category.name })
          .returning({ id: messageCategories.id });
        if (!row) throw new Error('category insert returned no row');
        id = row.id;
        created++;
      } else {
        await tx.delete(messages).where(eq(messages.categoryId, id));
        updated++;
      }
      orderedIds.push(id);
      if (category.messages.length) {
        await tx
          .insert(messages)
          .values(category.messages.map((text, position) => ({ categoryId: id, messageText: text, position })));
        messageCount += category.messages.length;
      }
    }
    const named = new Set(orderedIds);
    orderedIds.push(...existing.filter((c) => !named.has(c.id)).map((c) => c.id));
    for (const [position, id] of orderedIds.entries()) {
      await tx.update(messageCategories).set({ position }).where(eq(messageCategories.id, id));
    }
    return { categories_created: created, categories_updated: updated, messages: messageCount };
  });
}
