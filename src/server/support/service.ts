import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AdminSupportRequest, AdminSupportRequestList, SupportRequestExport } from '@shared/contract';
import { ADMIN_SUPPORT_PAGE_SIZE } from '@shared/contract';
import { planIncludes } from '@shared/plans';
import type { Db } from '../db/client';
import { pagesOf } from '../db/pages';
import { supportRequests } from '../db/schema';
import { notFound } from '../http/errors';
import { planOfSignedIn } from '../own/service';
import { lockUserRow } from '../db/user-lock';

// Support requests (docs/product/accounts.md#support): stored before anything is mailed, so a mail
// that fails loses nothing; staff read and close them in the admin.

type Row = typeof supportRequests.$inferSelect;

/**
 * How many requests a person sent in the last hour, and in how many seconds the oldest of them leaves
 * that hour. Counted from the stored requests, so the limit holds across restarts and servers; the
 * sender's row is locked first, so two sends at once are counted one after the other. Call it in the
 * transaction that stores the request.
 */
export async function supportRequestsInLastHour(
  tx: Db,
  userId: number,
): Promise<{ sent: number; freeInSeconds: number }> {
  await lockUserRow(tx, userId);
  const [row] = await tx
    .select({
      sent: count(),
      freeInSeconds: sql<number>`coalesce(extract(epoch from min(${supportRequests.createdAt}) + interval '1 hour' - now()), 0)::float8`,
    })
    .from(supportRequests)
    .where(and(eq(supportRequests.userId, userId), gt(supportRequests.createdAt, sql`now() - interval '1 hour'`)));
  return { sent: row?.sent ?? 0, freeInSeconds: Number(row?.freeInSeconds ?? 0) };
}

/** Stores a request with the sender's e-mail and plan as they are now; priority when the plan includes it. */
export async function createSupportRequest(
  db: Db,
  sender: { id: number; email: string },
  body: { subject: string; message: string },
): Promise<Row> {
  const plan = await planOfSignedIn(db, sender.id);
  const [row] = await db
    .insert(supportRequests)
    .values({
      userId: sender.id,
      email: sender.email,
      plan,
      subject: body.subject,
      message: body.message,
      priority: planIncludes(plan, 'prioritySupport'),
    })
    .returning();
  if (!row) throw new Error('support request insert returned no row');
  return row;
}

const toAdmin = (row: Row): AdminSupportRequest => ({
  id: row.id,
  user_id: row.userId,
  email: row.email,
  plan: row.plan,
  subject: row.subject,
  message: row.message,
  priority: row.priority,
  created_at: row.createdAt.toISOString(),
  handled_at: row.handledAt?.toISOString() ?? null,
});

/**
 * A person's own requests, oldest first, `size` a read, for their data export: five an hour, kept until the account
 * goes, so no plan bounds how many.
 */
export async function* supportRequestPages(
  db: Db,
  userId: number,
  size: number,
): AsyncGenerator<SupportRequestExport[]> {
  const pages = pagesOf(
    size,
    (after: number | undefined, limit) =>
      db
        .select()
        .from(supportRequests)
        .where(and(eq(supportRequests.userId, userId), gt(supportRequests.id, after ?? 0)))
        .orderBy(supportRequests.id)
        .limit(limit),
    (row) => row.id,
  );
  for await (const rows of pages)
    yield rows.map((row) => {
      const { user_id: _userId, ...exported } = toAdmin(row);
      return exported;
    });
}

/** Newest first; `openOnly`: those not yet handled. */
export async function listSupportRequests(db: Db, openOnly: boolean): Promise<AdminSupportRequestList> {
  const where = openOnly ? isNull(supportRequests.handledAt) : undefined;
  const [rows, [matching], [open]] = await Promise.all([
    db
      .select()
      .from(supportRequests)
      .where(where)
      .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
      .limit(ADMIN_SUPPORT_PAGE_SIZE),
    db.select({ n: count() }).from(supportRequests).where(where),
    db.select({ n: count() }).from(supportRequests).where(isNull(supportRequests.handledAt)),
  ]);
  return { results: rows.map(toAdmin), count: matching?.n ?? 0, open: open?.n ?? 0 };
}

/** Marks a request handled (keeping the first time it was) or open again. */
export async function setSupportRequestHandled(db: Db, id: number, handled: boolean): Promise<AdminSupportRequest> {
  const [row] = await db
    .update(supportRequests)
    .set({ handledAt: handled ? sql`coalesce(${supportRequests.handledAt}, now())` : null })
    .where(eq(supportRequests.id, id))
    .returning();
  if (!row) throw notFound();
  return toAdmin(row);
}
