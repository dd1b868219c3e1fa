import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client';

// A list too long to read at once (a data export's: docs/decisions/087-an-export-reads-its-long-lists-in-pages.md).

/**
 * The list `size` rows at a time, each read starting after the last row of the read before (keyset, not offset:
 * the last read costs what the first did, and a row added or removed meanwhile moves no other across a read's
 * edge). `read(after, size)` reads at most `size` rows in the list's order, from its start when `after` is undefined.
 */
export async function* pagesOf<Row, Key>(
  size: number,
  read: (after: Key | undefined, size: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row[]> {
  for (let after: Key | undefined; ;) {
    const rows = await read(after, size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = keyOf(rows.at(-1)!);
  }
}

/**
 * A row's place in a list ordered by a time and then by id. The time is as the database writes it: a Date keeps
 * milliseconds, and a row stored with microseconds would come again on the next read (or one be skipped).
 */
export type TimeKey = { at: string; id: number };

/** The column's time as TimeKey's `at`. */
export const exactTime = (column: AnyPgColumn) => sql<string>`${column}::text`;

/** The rows past `key` in a list ordered by (`at`, `id`), ascending or descending. */
export const pastTimeKey = (at: AnyPgColumn, id: AnyPgColumn, key: TimeKey, order: 'asc' | 'desc'): SQL =>
  order === 'asc'
    ? sql`(${at}, ${id}) > (${key.at}::timestamptz, ${key.id})`
    : sql`(${at}, ${id}) < (${key.at}::timestamptz, ${key.id})`;

/**
 * `read` with the planner kept from a bitmap scan, so that a page of a list an index holds in order (the history's
 * person and time) is read along that index. A planner whose statistics on the table are missing or older than its
 * rows (never analysed, analysed empty, filled since: until autovacuum or the embedded database's next round comes
 * by, or never on a PostgreSQL with autovacuum off) guesses a person has a few hundred rows and, for each page,
 * fetches every row past its edge and sorts them to keep a page: 100,000 sessions were read as 5 million rows, most
 * of an export's time (docs/decisions/087-an-export-reads-its-long-lists-in-pages.md). With statistics the planner
 * takes that plan by itself, and the setting costs the page's transaction (kept: decision 095). A transaction of its
 * own: the setting lasts as long, on a pooled connection as on the embedded database.
 */
export const inIndexOrder = <Rows>(db: Db, read: (db: Pick<Db, 'select'>) => Promise<Rows>): Promise<Rows> =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_bitmapscan = off`);
    return read(tx);
  });
