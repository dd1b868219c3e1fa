import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema';

/**
 * Whether a driver error (PGlite or node-postgres, possibly wrapped by Drizzle) is a unique violation (SQLSTATE
 * 23505) of this constraint or unique index, by its name in src/server/db/schema.ts: a write that could break
 * two of them is answered for the one it broke (both drivers name it in the error's `constraint`).
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { code, constraint: broken } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return broken === constraint;
  }
  return false;
}

/** The foreign keys that name an account (users.id), by their constraint names in the database. */
const USER_FOREIGN_KEYS = new Set(
  (Object.values(schema) as unknown[])
    .flatMap((table) => (is(table, PgTable) ? getTableConfig(table).foreignKeys : []))
    .filter((key) => key.reference().foreignTable === schema.users)
    .map((key) => key.getName()),
);

/**
 * Whether a driver error (PGlite or node-postgres, possibly wrapped by Drizzle) is a foreign-key violation
 * (SQLSTATE 23503) of a row naming an account: a write for an account deleted since its request was let in.
 */
export function isUserForeignKeyViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23503') return typeof constraint === 'string' && USER_FOREIGN_KEYS.has(constraint);
  }
  return false;
}

/** Runs a write, turning a unique violation of this constraint into the caller's 400 (a name already taken). */
export async function rethrowUniqueAs<T>(
  constraint: string,
  write: () => Promise<T>,
  duplicate: () => Error,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, constraint)) throw duplicate();
    throw error;
  }
}

/**
 * Runs a write that may race another for the same unique value: a first violation of this constraint runs it once
 * more (the row that won is in by then, and the write may take it over or find it taken), a second turns into the
 * caller's 400.
 */
export async function retryOnceOnUnique<T>(
  constraint: string,
  write: () => Promise<T>,
  duplicate: () => Error,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error, constraint)) throw error;
    return rethrowUniqueAs(constraint, write, duplicate);
  }
}

/** Socket-level failures of the database connection (node-postgres reports them with these codes). */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres' own words when a connection drops or cannot be had in time. */
const CONNECTION_ERROR_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)/i;

/**
 * Whether a failure means the database cannot be reached right now (a 503 for the client, who may
 * retry) rather than a fault in the request: connection refused or cut, SQLSTATE class 08
 * (connection exception), 57P01–57P03 (shutdown, cannot connect now) and 53300 (too many connections).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300')
    )
      return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && CONNECTION_ERROR_MESSAGES.test(message)) return true;
  }
  return false;
}
