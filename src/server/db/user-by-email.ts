import { eq, sql } from 'drizzle-orm';
import { users } from './schema';

/**
 * The account whose e-mail is `email`, whatever its case or the spaces around it: the expression of the
 * unique index on `lower(email)`, so the match uses it.
 */
export const userByEmail = (email: string) => eq(sql`lower(${users.email})`, email.trim().toLowerCase());
