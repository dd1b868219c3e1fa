import { and, count, desc, eq, gte } from 'drizzle-orm';
import type {
  GoalId,
  HistoryEntry,
  Onboarding,
  OnboardingWrite,
  Practice,
  Reminder,
  SessionMinutes,
} from '@shared/contract';
import { historyWriteSchema, onboardingWriteSchema, type HistoryWrite } from '@shared/contract';
import type { Db } from '../db/client';
import { guidancePreferences, listeningHistory } from '../db/schema';
import { badRequest } from '../http/errors';

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

/** Saves the answers (or the skip); the first save sets `completed_at`, later ones keep it. */
export async function saveOnboarding(db: Db, userId: number, input: OnboardingWrite): Promise<Onboarding> {
  const answers = onboardingWriteSchema.parse(input);
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
): Promise<HistoryEntry> {
  const session = historyWriteSchema.parse(input);
  const startedAt = new Date(session.started_at);
  if (startedAt.getTime() > now.getTime() + FUTURE_SLACK_MS)
    throw badRequest({ started_at: ['The start may not be in the future.'] });
  // Also keeps out years the database cannot store (e.g. 0000).
  if (startedAt.getTime() < EARLIEST_START.getTime())
    throw badRequest({ started_at: ['The start may not be before 2000.'] });
  const [row] = await db
    .insert(listeningHistory)
    .values({
      userId,
      kind: session.kind,
      ref: session.ref,
      title: session.title,
      seconds: session.seconds,
      finished: session.finished,
      startedAt,
    })
    .returning();
  return entryOut(row!);
}

/** The last `limit` sessions, newest start first (all of them without a limit: the export). */
export async function listHistory(db: Db, userId: number, limit?: number): Promise<HistoryEntry[]> {
  const query = db
    .select()
    .from(listeningHistory)
    .where(eq(listeningHistory.userId, userId))
    .orderBy(desc(listeningHistory.startedAt), desc(listeningHistory.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map(entryOut);
}

export async function deleteHistory(db: Db, userId: number): Promise<void> {
  await db.delete(listeningHistory).where(eq(listeningHistory.userId, userId));
}

const DAY_MS = 24 * 60 * 60 * 1000;
const LAST_SESSIONS = 5;

/** The last seven days, rolling (no time zone needed), and the last sessions. */
export async function readPractice(db: Db, userId: number, now = new Date()): Promise<Practice> {
  const since = new Date(now.getTime() - 7 * DAY_MS);
  const week = await db
    .select({ seconds: listeningHistory.seconds, startedAt: listeningHistory.startedAt })
    .from(listeningHistory)
    .where(and(eq(listeningHistory.userId, userId), gte(listeningHistory.startedAt, since)));
  const daily = Array.from({ length: 7 }, () => 0);
  for (const session of week) {
    const index = Math.min(6, Math.floor((session.startedAt.getTime() - since.getTime()) / DAY_MS));
    daily[index]! += session.seconds;
  }
  const seconds = week.reduce((sum, session) => sum + session.seconds, 0);
  const [total] = await db.select({ n: count() }).from(listeningHistory).where(eq(listeningHistory.userId, userId));
  return {
    week: {
      since: since.toISOString(),
      minutes: Math.round(seconds / 60),
      sessions: week.length,
      daily_minutes: daily.map((s) => Math.round(s / 60)),
    },
    total_sessions: total?.n ?? 0,
    last_sessions: await listHistory(db, userId, LAST_SESSIONS),
    reminder: await readReminder(db, userId),
  };
}
