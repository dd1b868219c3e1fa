import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  GoalId,
  HistoryEntry,
  Onboarding,
  Practice,
  Reminder,
  SessionMinutes,
  onboardingWriteSchema,
} from '@shared/contract';
import {
  HISTORY_DELETED_CODE,
  HISTORY_SECONDS_MAX,
  HISTORY_TRY_SECONDS,
  historyWriteSchema,
  replacesRecord,
  type HistoryWrite,
} from '@shared/contract';
import { queryRows, type Db } from '../db/client';
import { exactTime, inIndexOrder, pagesOf, pastTimeKey, type TimeKey } from '../db/pages';
import { guidancePreferences, listeningHistory, users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { recordProgramStart } from './programs';

// A person's onboarding answers, reminder, listening history and practice view
// (docs/product/guidance.md). Everything here is theirs alone: every query names their id.

type Preferences = typeof guidancePreferences.$inferSelect;

async function preferencesOf(db: Db, userId: number): Promise<Preferences | undefined> {
  const [row] = await db.select().from(guidancePreferences).where(eq(guidancePreferences.userId, userId));
  return row;
}

function onboardingOut(row: Preferences | undefined): Onboarding {
  return {
    goals: (row?.goals ?? []) as GoalId[],
    free_text: row?.freeText ?? '',
    headphones: row?.headphones ?? null,
    session_minutes: (row?.sessionMinutes ?? null) as SessionMinutes | null,
    skipped: row?.skipped ?? false,
    completed_at: row?.completedAt?.toISOString() ?? null,
  };
}

export const readOnboarding = async (db: Db, userId: number) => onboardingOut(await preferencesOf(db, userId));

/**
 * Saves the answers (or the skip), as the route's schema read them, words stored before decision 063 let through
 * (decision 133); the first save sets `completed_at`, later ones keep it.
 */
export async function saveOnboarding(
  db: Db,
  userId: number,
  answers: z.output<typeof onboardingWriteSchema>,
): Promise<Onboarding> {
  const now = new Date();
  const values = {
    goals: answers.goals,
    freeText: answers.free_text,
    headphones: answers.headphones,
    sessionMinutes: answers.session_minutes,
    skipped: answers.skipped,
    updatedAt: now,
  };
  const [row] = await db
    .insert(guidancePreferences)
    .values({ userId, ...values, completedAt: now })
    .onConflictDoUpdate({ target: guidancePreferences.userId, set: values })
    .returning();
  if (row && row.completedAt === null) {
    // A row made by a reminder change before any onboarding answer.
    const [done] = await db
      .update(guidancePreferences)
      .set({ completedAt: now })
      .where(eq(guidancePreferences.userId, userId))
      .returning();
    return onboardingOut(done);
  }
  return onboardingOut(row);
}

const reminderOut = (row: Preferences | undefined): Reminder => ({
  enabled: row?.reminderEnabled ?? false,
  time_of_day: row?.reminderEnabled ? (row.reminderTime ?? null) : null,
});

export const readReminder = async (db: Db, userId: number) => reminderOut(await preferencesOf(db, userId));

/** Turns the in-portal daily reminder on at a time, or off. Does not count as answering the onboarding. */
export async function saveReminder(db: Db, userId: number, reminder: Reminder): Promise<Reminder> {
  const values = {
    reminderEnabled: reminder.enabled,
    reminderTime: reminder.enabled ? reminder.time_of_day : null,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(guidancePreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: guidancePreferences.userId, set: values })
    .returning();
  return reminderOut(row);
}

// History

type HistoryRow = typeof listeningHistory.$inferSelect;

const entryOut = (row: HistoryRow): HistoryEntry => ({
  id: row.id,
  kind: row.kind,
  ref: row.ref,
  title: row.title,
  seconds: row.seconds,
  finished: row.finished,
  started_at: row.startedAt.toISOString(),
  recorded_at: row.recordedAt.toISOString(),
});

/** A clock a little ahead of another device's is fine; a start well in the future is not. */
const FUTURE_SLACK_MS = 5 * 60 * 1000;
const EARLIEST_START = new Date('2000-01-01T00:00:00Z');

export async function recordSession(
  db: Db,
  userId: number,
  input: HistoryWrite,
  now = new Date(),
): Promise<{ entry: HistoryEntry; created: boolean }> {
  const session = historyWriteSchema.parse(input);
  // The start is the browser's clock, the deletion and `now` the server's: a sender that says its clock
  // (`sent_at`) has its start moved by the difference, so that one a few minutes slow is not taken for a
  // session begun before a deletion. Whatever it says, the start moved is checked as any start is below:
  // it can claim no more than a false `started_at` could (docs/decisions/054-a-deleted-history-stays-deleted.md).
  const clockBehind = session.sent_at === undefined ? 0 : now.getTime() - Date.parse(session.sent_at);
  const startedAt = new Date(Date.parse(session.started_at) + clockBehind);
  if (startedAt.getTime() > now.getTime() + FUTURE_SLACK_MS)
    throw badRequest({ started_at: ['The start may not be in the future.'] });
  // A session is recorded once it has stopped: one that would still be playing now is not one that was.
  if (startedAt.getTime() + session.seconds * 1000 > now.getTime() + FUTURE_SLACK_MS)
    throw badRequest({ seconds: ['The session may not end in the future.'] });
  // Also keeps out years the database cannot store (e.g. 0000).
  if (startedAt.getTime() < EARLIEST_START.getTime())
    throw badRequest({ started_at: ['The start may not be before 2000.'] });
  return db.transaction(async (tx) => {
    // Held against deleteHistory (which takes it for update), so a record cannot slip in beside a
    // deletion begun after its check; key share leaves the person's other changes free.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('key share');
    const [deleted] = await tx
      .select({ at: guidancePreferences.historyDeletedAt })
      .from(guidancePreferences)
      .where(eq(guidancePreferences.userId, userId));
    // A session begun before the person deleted their history, sent late by another browser, would bring
    // back what they deleted (docs/decisions/054-a-deleted-history-stays-deleted.md).
    if (deleted?.at && startedAt.getTime() < deleted.at.getTime())
      throw new ApiError(409, { detail: HISTORY_DELETED_DETAIL, code: HISTORY_DELETED_CODE });
    return insertSession(tx, userId, session, startedAt, now);
  });
}

/** The person deleted their history after the session began: nothing is added. */
const HISTORY_DELETED_DETAIL = 'The history was deleted after this session began, so it is not added.';

async function insertSession(
  db: Db,
  userId: number,
  session: ReturnType<typeof historyWriteSchema.parse>,
  startedAt: Date,
  now: Date,
): Promise<{ entry: HistoryEntry; created: boolean }> {
  const values = {
    kind: session.kind,
    ref: session.ref,
    title: session.title,
    seconds: session.seconds,
    finished: session.finished,
    startedAt,
  };
  const [row] = await db
    .insert(listeningHistory)
    .values({ userId, ...values, recordKey: session.record_key ?? null })
    // The same record sent again (its first answer lost, or two tabs delivering it) adds nothing. Two
    // at once: the second waits for the first's insert and then finds it.
    .onConflictDoNothing({ target: [listeningHistory.userId, listeningHistory.recordKey] })
    .returning();
  // A day's session starts its program, as the progress reads it (docs/product/guidance.md#programs).
  if (session.kind === 'program') await recordProgramStart(db, userId, session.ref, startedAt);
  if (row) return { entry: entryOut(row), created: true };
  // Held until the transaction ends, so two records of one session sent at once are compared in turn.
  const [kept] = await db
    .select()
    .from(listeningHistory)
    .where(and(eq(listeningHistory.userId, userId), eq(listeningHistory.recordKey, session.record_key!)))
    .for('update');
  // A session sent as it goes: the longer record is the entry, as checked above; a late copy of an
  // earlier one changes nothing (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
  if (!replacesRecord(session, kept!)) return { entry: entryOut(kept!), created: false };
  const [replaced] = await db
    .update(listeningHistory)
    .set({ ...values, recordedAt: now })
    .where(eq(listeningHistory.id, kept!.id))
    .returning();
  return { entry: entryOut(replaced!), created: false };
}

/** Up to `limit` sessions, newest start first, from the one after `after` (without it, from the newest). */
const historyRows = (db: Pick<Db, 'select'>, userId: number, limit: number, after?: TimeKey) =>
  db
    .select({ row: listeningHistory, at: exactTime(listeningHistory.startedAt) })
    .from(listeningHistory)
    .where(
      and(
        eq(listeningHistory.userId, userId),
        after && pastTimeKey(listeningHistory.startedAt, listeningHistory.id, after, 'desc'),
      ),
    )
    .orderBy(desc(listeningHistory.startedAt), desc(listeningHistory.id))
    .limit(limit);

/** The last `limit` sessions, newest start first. */
export async function listHistory(db: Db, userId: number, limit: number): Promise<HistoryEntry[]> {
  return (await historyRows(db, userId, limit)).map(({ row }) => entryOut(row));
}

/** The whole history, newest start first, `size` sessions a read (the data export: no plan bounds its length). */
export async function* historyPages(db: Db, userId: number, size: number): AsyncGenerator<HistoryEntry[]> {
  const pages = pagesOf(
    size,
    (after: TimeKey | undefined, limit) => inIndexOrder(db, (tx) => historyRows(tx, userId, limit, after)),
    ({ row, at }) => ({ at, id: row.id }),
  );
  for await (const rows of pages) yield rows.map(({ row }) => entryOut(row));
}

/** Deletes the whole history, and remembers when: records of sessions begun before stay out (recordSession). */
export async function deleteHistory(db: Db, userId: number): Promise<void> {
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await tx
      .insert(guidancePreferences)
      .values({ userId, historyDeletedAt: now })
      .onConflictDoUpdate({ target: guidancePreferences.userId, set: { historyDeletedAt: now } });
    await tx.delete(listeningHistory).where(eq(listeningHistory.userId, userId));
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;
const LAST_SESSIONS = 5;

/**
 * A sitting is what the person counts as one session: history entries (one per sound, decision 036)
 * that follow one another with no more than this between one's end and the next one's start. Two
 * minutes is time to choose the next track, reload a page or put headphones on, and far shorter
 * than any break between two sittings (docs/decisions/038-a-session-shown-is-a-sitting.md).
 */
export const SITTING_PAUSE_SECONDS = 120;

/**
 * The person's history in start order, each entry with `opens`: whether it begins a sitting. An
 * entry's end is its start plus the seconds heard (by the client's clock, like its start; a pause
 * within it counts toward the gap after it, as nothing played then). It is compared with the latest
 * end before it, so an entry overlapping another (two tabs) never splits a sitting.
 */
const marked = (userId: number) => sql`
  with ordered as (
    select id, started_at, seconds,
      lag(started_at) over (order by started_at, id) as previous_start,
      max(started_at + seconds * interval '1 second')
        over (order by started_at, id rows between unbounded preceding and 1 preceding) as previous_end
    from ${listeningHistory} where user_id = ${userId}
  ),
  marked as (
    select *, (previous_end is null or started_at > previous_end + ${SITTING_PAUSE_SECONDS} * interval '1 second') as opens
    from ordered
  )`;

/**
 * Sittings in all and in the rolling week. A sitting counts in the week once when any of it was heard inside it,
 * as the week's minutes count that part: one begun before `since` that goes on after it too, even as a single
 * entry (docs/decisions/038-a-session-shown-is-a-sitting.md).
 */
async function countSittings(db: Db, userId: number, since: Date) {
  const [row] = await queryRows<{ total: number; week: number }>(
    db,
    sql`${marked(userId)},
    sittings as (select *, count(*) filter (where opens) over (order by started_at, id) as sitting from marked)
    select count(*) filter (where opens)::int as total,
      count(distinct sitting) filter (where started_at >= ${since.toISOString()}::timestamptz
        or started_at + seconds * interval '1 second' > ${since.toISOString()}::timestamptz)::int as week
    from sittings`,
  );
  return { total: row?.total ?? 0, week: row?.week ?? 0 };
}

/**
 * The last sessions to show, newest first: every stretch of a sound, but a sound tried for less than
 * `HISTORY_TRY_SECONDS` only when nothing longer played in its sitting (then its longest one), so a
 * sitting spent choosing a track shows the track chosen, and every sitting shows at least once; with the
 * number of tries so left out among them (from the oldest listed on), which the page names.
 */
async function lastSessions(db: Db, userId: number): Promise<{ entries: HistoryEntry[]; triesNotListed: number }> {
  const rows = await queryRows<{ id: number | null; tries: number }>(
    db,
    sql`${marked(userId)},
    sittings as (select *, count(*) filter (where opens) over (order by started_at, id) as sitting from marked),
    ranked as (
      select id, started_at, seconds,
        (seconds >= ${HISTORY_TRY_SECONDS}
          or row_number() over (partition by sitting order by seconds desc, started_at desc, id desc) = 1) as listable
      from sittings
    ),
    listed as (select id, started_at from ranked where listable order by started_at desc, id desc limit ${LAST_SESSIONS}),
    edge as (select case when count(*) < ${LAST_SESSIONS} then null else min(started_at) end as since from listed)
    select id, 0 as tries from listed
    union all
    select null, count(*)::int from ranked, edge where not listable and (edge.since is null or started_at >= edge.since)`,
  );
  const shown = rows.filter((row) => row.id !== null);
  const triesNotListed = Number(rows.find((row) => row.id === null)?.tries ?? 0);
  if (shown.length === 0) return { entries: [], triesNotListed };
  const entries = await db
    .select()
    .from(listeningHistory)
    .where(
      and(
        eq(listeningHistory.userId, userId),
        inArray(
          listeningHistory.id,
          shown.map((row) => row.id!),
        ),
      ),
    )
    .orderBy(desc(listeningHistory.startedAt), desc(listeningHistory.id));
  return { entries: entries.map(entryOut), triesNotListed };
}

/**
 * Seconds heard in each of the seven days before `now`, each day the 24 hours up to the same time of
 * day as `now` (rolling, so no time zone is needed; the web names each by the weekday it ends on).
 * Time heard twice at once (two tabs) counts once: the entries' intervals are joined first, and each
 * joined stretch is cut at the days' edges and the week's, so an entry across an edge counts in each
 * day it covers. An end a little after now (a device clock ahead, as recording allows) counts today,
 * and no day holds more than its 24 hours.
 */
export function secondsPerDay(
  entries: readonly { startedAt: Date; seconds: number }[],
  since: Date,
  now: Date,
): number[] {
  const from = since.getTime();
  const to = now.getTime() + FUTURE_SLACK_MS;
  const intervals = entries
    .map((entry) => [entry.startedAt.getTime(), entry.startedAt.getTime() + entry.seconds * 1000] as const)
    .map(([start, end]) => [Math.max(start, from), Math.min(end, to)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const [start, end] of intervals) {
    const last = joined.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else joined.push([start, end]);
  }
  const daily = Array.from({ length: 7 }, () => 0);
  for (const [start, end] of joined) {
    for (let day = Math.min(6, Math.floor((start - from) / DAY_MS)); day < 7 && start < end; day++) {
      const dayEnd = day === 6 ? to : from + (day + 1) * DAY_MS;
      const overlap = Math.min(end, dayEnd) - Math.max(start, from + day * DAY_MS);
      if (overlap > 0) daily[day]! += overlap / 1000;
      if (end <= dayEnd) break;
    }
  }
  return daily.map((seconds) => Math.min(seconds, DAY_MS / 1000));
}

/** The last seven days, rolling (no time zone needed), and the last sessions. */
export async function readPractice(db: Db, userId: number, now = new Date()): Promise<Practice> {
  const since = new Date(now.getTime() - 7 * DAY_MS);
  // An entry lasts at most a day, so one begun a day before the week may reach into it.
  const week = await db
    .select({ seconds: listeningHistory.seconds, startedAt: listeningHistory.startedAt })
    .from(listeningHistory)
    .where(
      and(
        eq(listeningHistory.userId, userId),
        gte(listeningHistory.startedAt, new Date(since.getTime() - HISTORY_SECONDS_MAX * 1000)),
      ),
    );
  const seconds = secondsPerDay(week, since, now);
  const daily = seconds.map((heard) => Math.round(heard / 60));
  const sittings = await countSittings(db, userId, since);
  const last = await lastSessions(db, userId);
  return {
    week: {
      since: since.toISOString(),
      // The sum of the days, so the total and the bars always agree.
      minutes: daily.reduce((sum, minutes) => sum + minutes, 0),
      sessions: sittings.week,
      daily_minutes: daily,
      daily_seconds: seconds.map(Math.ceil),
    },
    total_sessions: sittings.total,
    last_sessions: last.entries,
    tries_not_listed: last.triesNotListed,
    reminder: await readReminder(db, userId),
  };
}
