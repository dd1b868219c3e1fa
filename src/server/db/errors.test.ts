import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { isUniqueViolation, isUserForeignKeyViolation, rethrowUniqueAs } from './errors';
import { ownCategories, ownMessages, profiles, users } from './schema';
import { createTestDatabase } from '../test/database';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** What the driver throws for a second account of this address (whatever its case). */
async function duplicateEmailError(email: string): Promise<unknown> {
  await database.db.insert(users).values({ email, passwordHash: 'x' });
  return database.db
    .insert(users)
    .values({ email: email.toUpperCase(), passwordHash: 'x' })
    .then(() => expect.unreachable('the second address was kept'))
    .catch((error: unknown) => error);
}

describe('a unique violation', () => {
  it('is told by the constraint it broke, as this database names it', async () => {
    const error = await duplicateEmailError('ada@example.com');
    expect(isUniqueViolation(error, 'users_email_lower_unique')).toBe(true);
    expect(isUniqueViolation(error, 'own_categories_user_lower_name_unique')).toBe(false);
    // Any other failure is none.
    const other = await database.db.execute(sql`select 1/0`).catch((failure: unknown) => failure);
    expect(isUniqueViolation(other, 'users_email_lower_unique')).toBe(false);
  });

  it('of another constraint than the one named is not turned into the caller’s answer', async () => {
    const error = await duplicateEmailError('bob@example.com');
    const taken = new Error('taken');
    await expect(
      rethrowUniqueAs(
        'users_email_lower_unique',
        () => Promise.reject(error),
        () => taken,
      ),
    ).rejects.toBe(taken);
    await expect(
      rethrowUniqueAs(
        'message_categories_displayed_name_unique',
        () => Promise.reject(error),
        () => taken,
      ),
    ).rejects.toBe(error);
  });
});

describe('a foreign-key violation', () => {
  const failureOf = (write: Promise<unknown>) =>
    write.then(() => expect.unreachable('the row was kept')).catch((error: unknown) => error);

  it('of a row naming an account that is not there is told apart from every other', async () => {
    const [user] = await database.db.insert(users).values({ email: 'cy@example.com', passwordHash: 'x' }).returning();
    const [category] = await database.db.insert(ownCategories).values({ userId: user!.id, name: 'Mine' }).returning();
    const noAccount = await failureOf(database.db.insert(profiles).values({ userId: user!.id + 1000 }));
    expect(isUserForeignKeyViolation(noAccount)).toBe(true);
    // A message naming a missing category (its account there) is a fault of another kind.
    const noCategory = await failureOf(
      database.db.insert(ownMessages).values({ userId: user!.id, categoryId: category!.id + 1000, messageText: 'x' }),
    );
    expect(isUserForeignKeyViolation(noCategory)).toBe(false);
    expect(isUserForeignKeyViolation(await duplicateEmailError('dee@example.com'))).toBe(false);
    expect(isUserForeignKeyViolation(new Error('other'))).toBe(false);
  });
});
