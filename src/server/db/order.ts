import { sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { LIST_CHANGED_CODE, LIST_CHANGED_MESSAGE } from '@shared/contract/portal-plain';
import { ApiError } from '../http/errors';
import type { Db } from './client';

/**
 * Checks that a new order names every row of the list as it is now exactly once (the contract has refused an id named
 * twice): a list changed meanwhile (a row added or removed elsewhere) is refused 409 `list_changed`, saying so, and
 * never half reordered (docs/decisions/084-a-staff-edit-of-a-name-names-the-name-it-began-from.md).
 */
export function assertPermutation(ids: readonly number[], existing: readonly number[]): void {
  const known = new Set(existing);
  if (ids.length !== existing.length || !ids.every((id) => known.has(id))) {
    throw new ApiError(409, { detail: LIST_CHANGED_MESSAGE, code: LIST_CHANGED_CODE });
  }
}

/** A list kept in order by its rows' positions (ties: by id). */
type OrderedTable = PgTable & { id: AnyPgColumn; position: AnyPgColumn };

/**
 * Gives the row `ids[i]` position i in one statement, not one per row (500 rows took 0.3 s that way).
 * The ids (integers of the list, checked) travel as one array literal: a list of any length is one
 * parameter, where a values list takes two a row (65,535 at most) and a statement drizzle builds
 * too deep to recurse through.
 * No unique index covers a position, so the rows may pass through each other's old positions.
 */
export async function writePositions(db: Pick<Db, 'execute'>, table: OrderedTable, ids: readonly number[]) {
  await db.execute(
    sql`update ${table} set ${sql.identifier(table.position.name)} = (v.n - 1)::integer
        from unnest(${`{${ids.join(',')}}`}::integer[]) with ordinality as v(id, n)
        where ${table.id} = v.id`,
  );
}
