import type { z } from 'zod';
import { and, asc, count, countDistinct, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import {
  adminProgramWriteSchema,
  adminProgramWriteSchemaOf,
  type programDayWriteSchema,
  PROGRAM_TRACK_NAME_MAX,
  programSlugSchema,
  type AdminProgram,
  type AdminProgramWrite,
  type StoredProgramTexts,
  type AudioKind,
  type GoalId,
  type Program,
  type ProgramDay,
  type ProgramLayer,
  type ProgramLayerWrite,
  type ProgramProgress,
  type ProgramSummary,
} from '@shared/contract';
import type { Db } from '../db/client';
import { rethrowUniqueAs } from '../db/errors';
import { audioItems, programDays, programProgress, programStarts, programs } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/errors';
import { SEED_PROGRAMS } from './seed-programs';
import { refuseIfChangedMeanwhile } from '../db/changed-meanwhile';
import { markSeeded, wasSeeded } from '../seed/seeded-content';

// Programs (docs/product/guidance.md#programs): curated multi-day sessions, read by everyone signed
// in, written by staff (API and CLI), seeded by slug at start; progress is one row per completed day.

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type ProgramRow = typeof programs.$inferSelect;
type DayRow = typeof programDays.$inferSelect;

/** `lock`: the row stays locked until the transaction ends (a replace: a second one waits for it). */
/** `lock`: held until the transaction ends, to change it (`update`), or to write what follows its days (`share`). */
async function programBySlug(db: Db | Tx, slug: string, lock?: 'update' | 'share'): Promise<ProgramRow> {
  const query = db.select().from(programs).where(eq(programs.slug, slug));
  const [row] = await (lock ? query.for(lock) : query);
  if (!row) throw notFound();
  return row;
}

/** Whether a program has this slug (a slug the contract refuses names none): the program page's status. */
export async function programExists(db: Db, slug: string): Promise<boolean> {
  if (!programSlugSchema.safeParse(slug).success) return false;
  const [row] = await db.select({ id: programs.id }).from(programs).where(eq(programs.slug, slug)).limit(1);
  return row !== undefined;
}

async function daysOf(db: Db | Tx, programIds: number[]): Promise<DayRow[]> {
  if (programIds.length === 0) return [];
  return db
    .select()
    .from(programDays)
    .where(inArray(programDays.programId, programIds))
    .orderBy(asc(programDays.programId), asc(programDays.day));
}

/** Track layers name a library track; answers add its id (null when staff removed it). */
async function resolveLayers(db: Db | Tx, days: DayRow[]): Promise<Map<number, ProgramLayer[]>> {
  const tracks = await db.select({ id: audioItems.id, kind: audioItems.kind, name: audioItems.name }).from(audioItems);
  const idOf = new Map(tracks.map((t) => [`${t.kind}/${t.name}`, t.id]));
  return new Map(
    days.map((day) => [
      day.id,
      (day.layers as ProgramLayerWrite[]).map((layer) =>
        layer.kind === 'track' ? { ...layer, track_id: idOf.get(`${layer.audio_kind}/${layer.name}`) ?? null } : layer,
      ),
    ]),
  );
}

function dayOut(day: DayRow, layers: Map<number, ProgramLayer[]>): ProgramDay {
  return {
    day: day.day,
    title: day.title,
    intro: day.intro,
    minutes: day.minutes,
    messages: day.messages,
    layers: layers.get(day.id) ?? [],
  };
}

function progressOut(
  slug: string,
  dayCount: number,
  done: { day: number; completedAt: Date }[],
  startedAt: Date | null,
): ProgramProgress {
  const completed = [...new Set(done.map((d) => d.day))].filter((d) => d <= dayCount).sort((a, b) => a - b);
  let next: number | null = null;
  for (let day = 1; day <= dayCount; day += 1)
    if (!completed.includes(day)) {
      next = day;
      break;
    }
  const last = done.reduce<Date | null>(
    (latest, d) => (!latest || d.completedAt > latest ? d.completedAt : latest),
    null,
  );
  // Days done before starts were recorded (and by clients that mark a day without recording it) start it too.
  const started = done.reduce<Date | null>(
    (earliest, d) => (!earliest || d.completedAt < earliest ? d.completedAt : earliest),
    startedAt,
  );
  return {
    slug,
    completed_days: completed,
    next_day: next,
    last_completed_at: last?.toISOString() ?? null,
    started_at: started?.toISOString() ?? null,
  };
}

async function progressRows(db: Db | Tx, userId: number, programIds: number[]) {
  if (programIds.length === 0) return [];
  return db
    .select({
      programId: programProgress.programId,
      day: programProgress.day,
      completedAt: programProgress.completedAt,
    })
    .from(programProgress)
    .where(and(eq(programProgress.userId, userId), inArray(programProgress.programId, programIds)));
}

/** When the person started each of these programs they have started. */
async function startsOf(db: Db | Tx, userId: number, programIds: number[]): Promise<Map<number, Date>> {
  if (programIds.length === 0) return new Map();
  const rows = await db
    .select({ programId: programStarts.programId, startedAt: programStarts.startedAt })
    .from(programStarts)
    .where(and(eq(programStarts.userId, userId), inArray(programStarts.programId, programIds)));
  return new Map(rows.map((row) => [row.programId, row.startedAt]));
}

/** The person's progress in one program. */
async function progressOf(db: Db | Tx, userId: number, row: ProgramRow, dayCount: number) {
  const starts = await startsOf(db, userId, [row.id]);
  return progressOut(row.slug, dayCount, await progressRows(db, userId, [row.id]), starts.get(row.id) ?? null);
}

const PROGRAM_DAY_REF = /^program:([a-z0-9-]+)\/\d+$/;

/**
 * A recorded session of a program's day (`ref` `program:<slug>/<day>`) starts that program for the person: the
 * earliest such start is kept until they reset it. A ref naming no program starts nothing.
 */
export async function recordProgramStart(db: Db | Tx, userId: number, ref: string, startedAt: Date): Promise<void> {
  const slug = PROGRAM_DAY_REF.exec(ref)?.[1];
  if (!slug) return;
  const [program] = await db.select({ id: programs.id }).from(programs).where(eq(programs.slug, slug));
  if (!program) return;
  await db
    .insert(programStarts)
    .values({ userId, programId: program.id, startedAt })
    .onConflictDoUpdate({
      target: [programStarts.userId, programStarts.programId],
      set: { startedAt: sql`least(${programStarts.startedAt}, excluded.started_at)` },
    });
}

const orderedPrograms = (db: Db | Tx) => db.select().from(programs).orderBy(asc(programs.position), asc(programs.id));

export async function listPrograms(db: Db, userId: number): Promise<ProgramSummary[]> {
  const rows = await orderedPrograms(db);
  const ids = rows.map((row) => row.id);
  const days = await daysOf(db, ids);
  const done = await progressRows(db, userId, ids);
  const starts = await startsOf(db, userId, ids);
  return rows.map((row) => {
    const own = days.filter((day) => day.programId === row.id);
    const minutes = own.map((day) => day.minutes);
    return {
      slug: row.slug,
      title: row.title,
      summary: row.summary,
      goals: row.goals as GoalId[],
      day_count: own.length,
      minutes: { min: minutes.length ? Math.min(...minutes) : 0, max: minutes.length ? Math.max(...minutes) : 0 },
      progress: progressOut(
        row.slug,
        own.length,
        done.filter((d) => d.programId === row.id),
        starts.get(row.id) ?? null,
      ),
    };
  });
}

export async function getProgram(db: Db, userId: number, slug: string): Promise<Program> {
  const row = await programBySlug(db, slug);
  const days = await daysOf(db, [row.id]);
  const layers = await resolveLayers(db, days);
  return {
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    goals: row.goals as GoalId[],
    days: days.map((day) => dayOut(day, layers)),
    progress: await progressOf(db, userId, row, days.length),
  };
}

/**
 * Marks a day done (again is fine: the first time counts); 404 for a day the program does not have. The program is
 * held while the day is checked and marked: staff deleting it or replacing its days at the same moment go first (the
 * day is then looked for in what they left: 404 for one gone, never a mark of a program gone, a 500, nor of a day
 * gone) or after (the mark is there for its day to move with).
 */
export async function completeDay(db: Db, userId: number, slug: string, day: number): Promise<ProgramProgress> {
  return db.transaction(async (tx) => {
    const row = await programBySlug(tx, slug, 'share');
    const days = await daysOf(tx, [row.id]);
    if (!days.some((d) => d.day === day)) throw notFound();
    await tx.insert(programProgress).values({ userId, programId: row.id, day }).onConflictDoNothing();
    return progressOf(tx, userId, row, days.length);
  });
}

/** Starts a program over: the person's completed days of it, and that they started it, are forgotten. */
export async function resetProgress(db: Db, userId: number, slug: string): Promise<void> {
  const row = await programBySlug(db, slug);
  await db.transaction(async (tx) => {
    await tx
      .delete(programProgress)
      .where(and(eq(programProgress.userId, userId), eq(programProgress.programId, row.id)));
    await tx.delete(programStarts).where(and(eq(programStarts.userId, userId), eq(programStarts.programId, row.id)));
  });
}

/** The person's progress in every program they have started (for the export of their data). */
export async function startedPrograms(db: Db, userId: number): Promise<ProgramProgress[]> {
  const list = await listPrograms(db, userId);
  return list.filter((program) => program.progress.started_at !== null).map((program) => program.progress);
}

// Staff

async function adminOut(db: Db | Tx, row: ProgramRow): Promise<AdminProgram> {
  const days = await daysOf(db, [row.id]);
  const layers = await resolveLayers(db, days);
  // Started as members read it: a session of one of its days recorded, or a day done.
  const [started] = await db.select({ n: countDistinct(sql`people.user_id`) }).from(
    sql`(${db
      .select({ user_id: programProgress.userId })
      .from(programProgress)
      .where(eq(programProgress.programId, row.id))
      .union(
        db.select({ user_id: programStarts.userId }).from(programStarts).where(eq(programStarts.programId, row.id)),
      )}) as people`,
  );
  return {
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    goals: row.goals as GoalId[],
    days: days.map((day) => dayOut(day, layers)),
    position: row.position,
    people_started: started?.n ?? 0,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function adminListPrograms(db: Db) {
  const rows = await orderedPrograms(db);
  const counts = await db
    .select({ programId: programDays.programId, n: count() })
    .from(programDays)
    .groupBy(programDays.programId);
  return rows.map((row) => ({
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    goals: row.goals as GoalId[],
    day_count: counts.find((c) => c.programId === row.id)?.n ?? 0,
    position: row.position,
    updated_at: row.updatedAt.toISOString(),
  }));
}

export async function adminGetProgram(db: Db, slug: string): Promise<AdminProgram> {
  return adminOut(db, await programBySlug(db, slug));
}

/** The texts of the program a replace writes over, or undefined when none has the slug (decision 138). */
export async function storedProgramTexts(db: Db, slug: string): Promise<StoredProgramTexts | undefined> {
  const [row] = await db.select().from(programs).where(eq(programs.slug, slug));
  return row && { ...row, days: await daysOf(db, [row.id]) };
}

const slugTaken = () => badRequest({ slug: ['A program with this slug already exists.'] });

/** A day as its write schema gives it, defaults filled. */
type ProgramDayWritten = z.output<typeof programDayWriteSchema>;

async function writeDays(tx: Tx, programId: number, { days }: { days: ProgramDayWritten[] }) {
  await tx.delete(programDays).where(eq(programDays.programId, programId));
  await tx.insert(programDays).values(
    days.map((day, index) => ({
      programId,
      day: index + 1,
      title: day.title,
      intro: day.intro,
      minutes: day.minutes,
      messages: day.messages,
      layers: day.layers,
    })),
  );
}

/** Adds a program at the end of the list; 400 when its slug is taken. */
export async function createProgram(db: Db, input: AdminProgramWrite): Promise<AdminProgram> {
  const program = adminProgramWriteSchema.parse(input);
  return db.transaction(async (tx) => {
    const [last] = await tx.select({ n: count() }).from(programs);
    const [row] = await tx
      .insert(programs)
      .values({
        slug: program.slug,
        title: program.title,
        summary: program.summary,
        goals: program.goals,
        position: last?.n ?? 0,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw slugTaken();
    await writeDays(tx, row.id, program);
    return adminOut(tx, row);
  });
}

/**
 * Moves everyone's progress with the days of a replaced program: a day's progress goes to the day that
 * names it in from_day, and progress in a day no one names is forgotten.
 */
async function moveProgress(tx: Tx, programId: number, moves: { from: number; to: number }[]) {
  const ofProgram = eq(programProgress.programId, programId);
  const kept = moves.map((move) => move.from);
  await tx
    .delete(programProgress)
    .where(kept.length > 0 ? and(ofProgram, notInArray(programProgress.day, kept)) : ofProgram);
  if (moves.every((move) => move.from === move.to)) return;
  // Through negative numbers: a day moved onto another's number never meets its old row in the key.
  const cases = sql.join(
    moves.map((move) => sql`when ${move.from} then ${-move.to}::integer`),
    sql` `,
  );
  await tx
    .update(programProgress)
    .set({ day: sql`case ${programProgress.day} ${cases} else ${programProgress.day} end` })
    .where(ofProgram);
  await tx
    .update(programProgress)
    .set({ day: sql`-${programProgress.day}` })
    .where(and(ofProgram, lt(programProgress.day, 0)));
}

/**
 * Replaces a program's text and days (its slug may change). Progress follows each day's from_day;
 * a body without from_day keeps it by day number, and days past the new end no longer count. A body's
 * updated_at other than the program's is refused 409 changed_meanwhile
 * (docs/decisions/034-progress-follows-a-programs-days.md, 091-the-rest-of-a-staff-library-kept-apart-and-not-saved-over.md).
 */
export async function replaceProgram(db: Db, slug: string, input: AdminProgramWrite): Promise<AdminProgram> {
  // The check of a new slug below sees no program added or renamed to it at the same moment: the index refuses it.
  return rethrowUniqueAs(
    'programs_slug_unique',
    () =>
      db.transaction(async (tx) => {
        // A second save of the same version waits for this one, then finds its updated_at changed.
        const existing = await programBySlug(tx, slug, 'update');
        // Its texts sent back as they are stored pass, one stored before decision 063 too (decision 138).
        const program = adminProgramWriteSchemaOf({ ...existing, days: await daysOf(tx, [existing.id]) }).parse(input);
        refuseIfChangedMeanwhile('program', {
          stored: existing.updatedAt.toISOString(),
          next: null,
          previous: program.updated_at,
        });
        if (program.slug !== slug) {
          const [clash] = await tx.select({ id: programs.id }).from(programs).where(eq(programs.slug, program.slug));
          if (clash) throw slugTaken();
        }
        const [row] = await tx
          .update(programs)
          .set({
            slug: program.slug,
            title: program.title,
            summary: program.summary,
            goals: program.goals,
            updatedAt: new Date(),
          })
          .where(eq(programs.id, existing.id))
          .returning();
        await writeDays(tx, existing.id, program);
        if (program.days.some((day) => day.from_day !== undefined))
          await moveProgress(
            tx,
            existing.id,
            program.days.flatMap((day, index) => (day.from_day == null ? [] : [{ from: day.from_day, to: index + 1 }])),
          );
        return adminOut(tx, row!);
      }),
    slugTaken,
  );
}

/**
 * A library track renamed by staff: the days' track layers that named it name it anew in the same transaction, so
 * they still play it, and their programs read as changed, so that an editor open on the old name is refused 409
 * rather than writing it back (docs/decisions/094-a-renamed-track-stays-in-its-programs.md). A name too long for a
 * layer is refused while a day plays the track.
 */
export async function followTrackRename(tx: Tx, kind: AudioKind, from: string, to: string): Promise<void> {
  if (from === to) return;
  const named = JSON.stringify([{ kind: 'track', audio_kind: kind, name: from }]);
  const renamed = await tx
    .update(programDays)
    .set({
      layers: sql`(
        select jsonb_agg(
          case when layer ->> 'kind' = 'track' and layer ->> 'audio_kind' = ${kind} and layer ->> 'name' = ${from}
            then jsonb_set(layer, '{name}', to_jsonb(${to}::text)) else layer end
          order by at)
        from jsonb_array_elements(${programDays.layers}) with ordinality as layers(layer, at))`,
    })
    .where(sql`jsonb_typeof(${programDays.layers}) = 'array' and ${programDays.layers} @> ${named}::jsonb`)
    .returning({ programId: programDays.programId });
  if (renamed.length === 0) return;
  if (to.length > PROGRAM_TRACK_NAME_MAX)
    throw badRequest({
      name: [
        `Ensure this field has no more than ${PROGRAM_TRACK_NAME_MAX} characters: a program's day plays this track by its name.`,
      ],
    });
  await tx
    .update(programs)
    .set({ updatedAt: new Date() })
    .where(inArray(programs.id, [...new Set(renamed.map((day) => day.programId))]));
}

export async function deleteProgram(db: Db, slug: string): Promise<void> {
  const [row] = await db.delete(programs).where(eq(programs.slug, slug)).returning({ id: programs.id });
  if (!row) throw notFound();
}

/** Adds the seeded programs never seeded before (by slug); answers how many were added. */
export async function seedPrograms(db: Db, seeds: readonly AdminProgramWrite[] = SEED_PROGRAMS): Promise<number> {
  let added = 0;
  for (const seed of seeds) {
    // Once seeded, not put in again: staff may have deleted it.
    if (await wasSeeded(db, 'program', seed.slug)) continue;
    try {
      await createProgram(db, seed);
      added += 1;
    } catch (error) {
      // Already there (this start, or another process starting at the same time).
      if (!(error instanceof ApiError && error.statusCode === 400)) throw error;
    }
    await markSeeded(db, 'program', seed.slug);
  }
  return added;
}
