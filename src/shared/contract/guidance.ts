import { z } from 'zod';
import { maxElements } from './drf-messages';
import { optionalTypedText, pathInteger, queryInteger, requiredString, typedText } from './fields';
import { maxCharacters } from './plain';
import { AUDIO_KINDS, GOAL_FREE_TEXT_MAX, GUIDANCE_GOALS, SESSION_MINUTES, type GoalId } from './portal-plain';

export {
  GOAL_FREE_TEXT_MAX,
  goalLabel,
  GUIDANCE_GOALS,
  HISTORY_DELETED_CODE,
  HISTORY_TRY_SECONDS,
  replacesRecord,
  SESSION_MINUTES,
  type GoalId,
  type SessionMinutes,
} from './portal-plain';

// Guidance (docs/product/guidance.md, api.md#guidance): the onboarding answers, programs and their
// progress, the listening history and practice view, reminders, and the recommendations (Pro).
// Every call here needs a signed-in person; the programs are the portal's content like the library.

const integer = (min: number, maxValue: number) =>
  z
    .number({ error: 'A valid integer is required.' })
    .int({ error: 'A valid integer is required.' })
    .min(min, { error: `Ensure this value is greater than or equal to ${min}.` })
    .max(maxValue, { error: `Ensure this value is less than or equal to ${maxValue}.` });
const level = () =>
  z
    .number({ error: 'A valid number is required.' })
    .min(0, { error: 'Ensure this value is greater than or equal to 0.' })
    .max(1, { error: 'Ensure this value is less than or equal to 1.' });

// Onboarding

export const GOAL_IDS = GUIDANCE_GOALS.map((goal) => goal.id) as [GoalId, ...GoalId[]];

const goalSchema = z.enum(GOAL_IDS, { error: 'Choose one of the listed goals.' });
const goalListSchema = z
  .array(goalSchema)
  .max(GOAL_IDS.length, maxElements(GOAL_IDS.length))
  .refine((goals) => new Set(goals).size === goals.length, { error: 'Each goal may be chosen once.' });
const sessionMinutesSchema = z.union(
  SESSION_MINUTES.map((minutes) => z.literal(minutes)),
  { error: `Choose one of ${SESSION_MINUTES.join(', ')} minutes.` },
);

/**
 * The onboarding as answered (or skipped); every field may be changed later in the profile. `stored`: the answers it
 * writes over, whose words sent back as they are stored pass, though stored with a control character before
 * decision 063 refused them, as every change of the goals sends them
 * (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
 */
export const onboardingWriteSchemaOf = (stored?: { free_text: string }) =>
  z.object({
    goals: goalListSchema.default([]),
    /**
     * In the person's own words (used by the recommendations); '' when none. Shown back in the profile and the
     * recommendations' reasons, so a typed text as `typedText()` reads one, only allowed to be empty
     * (docs/decisions/063-typed-text-shows-what-it-holds.md).
     */
    free_text: optionalTypedText(stored?.free_text)
      .max(GOAL_FREE_TEXT_MAX, maxCharacters(GOAL_FREE_TEXT_MAX))
      .default(''),
    /** Whether they listen with headphones (binaural layers need them); null when unanswered. */
    headphones: z.boolean({ error: 'Must be a valid boolean.' }).nullable().default(null),
    session_minutes: sessionMinutesSchema.nullable().default(null),
    /** True when the person chose "Skip for now"; the web then stops offering the onboarding. */
    skipped: z.boolean({ error: 'Must be a valid boolean.' }).default(false),
  });
export const onboardingWriteSchema = onboardingWriteSchemaOf();
export type OnboardingWrite = z.input<typeof onboardingWriteSchema>;

/**
 * The onboarding as stored. Before the first answer: no goals, nulls, `skipped` false and
 * `completed_at` null (the web shows the onboarding then). A PUT sets `completed_at` (skipping too).
 */
export const onboardingSchema = z.object({
  goals: z.array(goalSchema),
  free_text: z.string(),
  headphones: z.boolean().nullable(),
  session_minutes: sessionMinutesSchema.nullable(),
  skipped: z.boolean(),
  /** ISO 8601; null until answered or skipped. */
  completed_at: z.string().nullable(),
});
export type Onboarding = z.infer<typeof onboardingSchema>;

// Programs

export const PROGRAM_SLUG_MAX = 60;
export const PROGRAM_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const PROGRAM_TITLE_MAX = 80;
export const PROGRAM_SUMMARY_MAX = 300;
export const PROGRAM_INTRO_MAX = 2_000;
export const PROGRAM_DAYS_MAX = 60;
export const PROGRAM_DAY_MESSAGES_MAX = 60;
export const PROGRAM_DAY_LAYERS_MAX = 4;
export const PROGRAM_MESSAGE_MAX = 200;
export const PROGRAM_DAY_MINUTES = { min: 1, max: 120 } as const;

export const programSlugSchema = z
  .string({ error: 'Not a valid string.' })
  .max(PROGRAM_SLUG_MAX, maxCharacters(PROGRAM_SLUG_MAX))
  .regex(PROGRAM_SLUG_PATTERN, { error: 'Use lowercase letters, digits and single hyphens.' });
export const programParamsSchema = z.object({ slug: programSlugSchema });
export const programDayParamsSchema = programParamsSchema.extend({
  day: pathInteger(PROGRAM_DAYS_MAX),
});

export const NOISE_COLOURS = ['white', 'pink', 'brown'] as const;

/** The longest track name a day's layer holds (a track renamed longer than it, while a day plays it, is refused). */
export const PROGRAM_TRACK_NAME_MAX = 120;

/**
 * A sound layer of a day's session, in the sound engine's terms (docs/decisions/016): a library
 * track named by its library and name, a binaural beat, an isochronic tone or a noise colour, each
 * at its own level (0–1). Answers add `track_id` to a track layer: the library item's id, or null
 * when staff removed that track.
 */
const layerShapes = {
  track: z.object({
    kind: z.literal('track'),
    audio_kind: z.enum(AUDIO_KINDS, { error: 'Choose selfeggio, bonus or custom.' }),
    name: requiredString().max(PROGRAM_TRACK_NAME_MAX, maxCharacters(PROGRAM_TRACK_NAME_MAX)),
    gain: level(),
  }),
  binaural: z.object({
    kind: z.literal('binaural'),
    left_hz: integer(20, 1000),
    right_hz: integer(20, 1000),
    gain: level(),
  }),
  isochronic: z.object({
    kind: z.literal('isochronic'),
    carrier_hz: integer(20, 1000),
    pulse_hz: z.number().min(0.5).max(40),
    gain: level(),
  }),
  noise: z.object({ kind: z.literal('noise'), colour: z.enum(NOISE_COLOURS), gain: level() }),
};
export const programLayerWriteSchema = z.discriminatedUnion(
  'kind',
  [layerShapes.track, layerShapes.binaural, layerShapes.isochronic, layerShapes.noise],
  { error: 'A layer is a track, binaural, isochronic or noise.' },
);
export type ProgramLayerWrite = z.infer<typeof programLayerWriteSchema>;
export const programLayerSchema = z.discriminatedUnion('kind', [
  layerShapes.track.extend({ track_id: z.number().int().nullable() }),
  layerShapes.binaural,
  layerShapes.isochronic,
  layerShapes.noise,
]);
export type ProgramLayer = z.infer<typeof programLayerSchema>;

/**
 * A program's texts as stored, which a replace lets through sent back as they are (`typedText(stored)`): a day's
 * title, intro or message as any stored day holds it, so a day moved, or removed and brought back by Undo, keeps
 * its old text too (docs/decisions/138-an-undo-hands-the-keyboard-back-once.md).
 */
export interface StoredProgramTexts {
  title: string;
  summary: string;
  days: ReadonlyArray<{ title: string; intro: string; messages: readonly string[] }>;
}

/** One day as staff write it; days are numbered by their order (1, 2, ...). `stored`: its program's, as stored. */
export const programDayWriteSchemaOf = (stored?: StoredProgramTexts) =>
  z.object({
    title: typedText(stored?.days.map((day) => day.title)).max(PROGRAM_TITLE_MAX, maxCharacters(PROGRAM_TITLE_MAX)),
    /** A few calm sentences read before the session (plain text, blank lines between paragraphs). */
    intro: typedText(stored?.days.map((day) => day.intro)).max(PROGRAM_INTRO_MAX, maxCharacters(PROGRAM_INTRO_MAX)),
    minutes: integer(PROGRAM_DAY_MINUTES.min, PROGRAM_DAY_MINUTES.max),
    /** The session's messages, flashed like a playlist. */
    messages: z
      .array(
        typedText(stored?.days.flatMap((day) => day.messages)).max(
          PROGRAM_MESSAGE_MAX,
          maxCharacters(PROGRAM_MESSAGE_MAX),
        ),
      )
      .min(1, { error: 'A day needs at least one message.' })
      .max(PROGRAM_DAY_MESSAGES_MAX, maxElements(PROGRAM_DAY_MESSAGES_MAX)),
    layers: z
      .array(programLayerWriteSchema)
      .max(PROGRAM_DAY_LAYERS_MAX, maxElements(PROGRAM_DAY_LAYERS_MAX))
      .default([]),
    /**
     * When a program is replaced: the number this day had before the edit (null for a new day), so people's
     * progress in it moves with it. A program whose days all leave it out keeps progress by day number.
     */
    from_day: z.number().int().min(1).max(PROGRAM_DAYS_MAX).nullable().optional(),
  });
export const programDayWriteSchema = programDayWriteSchemaOf();
export type ProgramDayWrite = z.input<typeof programDayWriteSchema>;

/**
 * A day as read: its texts as stored, not checked as typed ones, so a day written with a control character before
 * decision 063 refused them is read rather than answered with a 500 (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
 */
export const programDaySchema = programDayWriteSchema.omit({ from_day: true }).extend({
  title: z.string(),
  intro: z.string(),
  messages: z.array(z.string()),
  day: z.number().int(),
  layers: z.array(programLayerSchema),
});
export type ProgramDay = z.infer<typeof programDaySchema>;

/** A person's progress in one program; `next_day` is the first day not done (null when all are). */
export const programProgressSchema = z.object({
  slug: z.string(),
  completed_days: z.array(z.number().int()),
  next_day: z.number().int().nullable(),
  /** ISO 8601; null before the first completed day. */
  last_completed_at: z.string().nullable(),
  /**
   * ISO 8601: when the person started the program, the start of the first session of one of its days the server
   * recorded (or its first day done, when earlier); null before, and again after a reset.
   */
  started_at: z.string().nullable(),
});
export type ProgramProgress = z.infer<typeof programProgressSchema>;

const programCore = {
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  goals: z.array(goalSchema),
};

/** `GET /api/user/programs/`: every program, in staff's order, with the person's progress. */
export const programSummarySchema = z.object({
  ...programCore,
  day_count: z.number().int(),
  /** The days' lengths, shortest and longest, in minutes. */
  minutes: z.object({ min: z.number().int(), max: z.number().int() }),
  progress: programProgressSchema,
});
export type ProgramSummary = z.infer<typeof programSummarySchema>;
export const programListSchema = z.array(programSummarySchema);

/** `GET /api/user/programs/:slug/`: the program with its days. */
export const programSchema = z.object({
  ...programCore,
  days: z.array(programDaySchema),
  progress: programProgressSchema,
});
export type Program = z.infer<typeof programSchema>;

// History and practice

export const HISTORY_KINDS = ['subliminal', 'music', 'binaural', 'program'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
export const HISTORY_SECONDS_MAX = 86_400;
export const HISTORY_TITLE_MAX = 120;
export const HISTORY_REF_MAX = 200;
export const HISTORY_LIMIT = { default: 20, max: 100 } as const;

/**
 * What a session was, as the portal writes it: a program's day, one library category's messages, a library track, one
 * of the person's own tracks, or nothing said (docs/decisions/116-the-mini-player-takes-a-finger-and-history-counts-what-was-seen.md).
 * `track:<id>` written before `own-track:<id>` existed, or by an older client, may name either kind of track
 * (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md).
 */
export const HISTORY_REF_PATTERN = new RegExp(
  `^(?:|program:${PROGRAM_SLUG_PATTERN.source.slice(1, -1)}/[1-9]\\d*|category:\\d+|track:\\d+|own-track:\\d+)$`,
);
/** The refusal of a `ref` in no shape of HISTORY_REF_PATTERN. */
export const HISTORY_REF_REFUSED =
  'Use program:<slug>/<day>, category:<id>, track:<id>, own-track:<id> or leave it empty.';

/** A finished or stopped session. `ref` says what it was (HISTORY_REF_PATTERN). */
export const historyWriteSchema = z.object({
  kind: z.enum(HISTORY_KINDS, { error: `Choose one of ${HISTORY_KINDS.join(', ')}.` }),
  ref: z
    .string({ error: 'Not a valid string.' })
    .trim()
    .max(HISTORY_REF_MAX, maxCharacters(HISTORY_REF_MAX))
    .regex(HISTORY_REF_PATTERN, { error: HISTORY_REF_REFUSED })
    .default(''),
  title: requiredString().max(HISTORY_TITLE_MAX, maxCharacters(HISTORY_TITLE_MAX)),
  seconds: integer(1, HISTORY_SECONDS_MAX),
  finished: z.boolean({ error: 'Must be a valid boolean.' }),
  /** ISO 8601 with an offset; not in the future. */
  started_at: z.iso.datetime({ offset: true, error: 'Enter a date and time as ISO 8601.' }),
  /**
   * A UUID the browser gives the record, so that sending it again (a retry whose first answer was lost,
   * two tabs delivering it) records it once: the person's record with this key already there is
   * answered, 200, and nothing is added (docs/decisions/046-a-record-that-cannot-be-sent-waits-in-the-browser.md).
   * A session under way is sent as it goes under one key, each time longer: a record that `replacesRecord`
   * the one kept takes its place in the same entry, 200 (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
   */
  record_key: z.uuid({ error: 'Must be a valid UUID.' }).optional(),
  /**
   * The sender's clock as it sends: the server moves `started_at` by how far that clock is from its own,
   * so a session's start is compared with a deletion, checked and stored in the server's time. Left out
   * (older clients), `started_at` is taken as it is
   * (docs/decisions/054-a-deleted-history-stays-deleted.md).
   */
  sent_at: z.iso.datetime({ offset: true, error: 'Enter a date and time as ISO 8601.' }).optional(),
});
export type HistoryWrite = z.input<typeof historyWriteSchema>;

export const historyEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(HISTORY_KINDS),
  ref: z.string(),
  title: z.string(),
  seconds: z.number().int(),
  finished: z.boolean(),
  started_at: z.string(),
  /** When the server recorded it. */
  recorded_at: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
/** Newest first. */
export const historyListSchema = z.array(historyEntrySchema);
export const historyQuerySchema = z.object({
  limit: queryInteger()
    .pipe(
      z
        .number()
        .min(1, { error: 'Ensure this value is greater than or equal to 1.' })
        .max(HISTORY_LIMIT.max, { error: `Ensure this value is less than or equal to ${HISTORY_LIMIT.max}.` }),
    )
    .default(HISTORY_LIMIT.default),
});

/** Opt-in reminders, shown only inside the portal (no e-mail, no push): off, or daily at a time. */
export const reminderSchema = z
  .object({
    enabled: z.boolean({ error: 'Must be a valid boolean.' }),
    /** "HH:MM", 24-hour, the person's local time; null when off. */
    time_of_day: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Enter a time as HH:MM (24-hour).' })
      .nullable()
      .default(null),
  })
  .refine((reminder) => !reminder.enabled || reminder.time_of_day !== null, {
    error: 'A daily reminder needs its time.',
    path: ['time_of_day'],
  });
export type Reminder = z.infer<typeof reminderSchema>;

/** "Your practice": the last seven days (rolling, so no time zone is needed), and the last sessions. */
export const practiceSchema = z.object({
  week: z.object({
    /** ISO 8601: seven days before now. */
    since: z.string(),
    minutes: z.number().int(),
    /** Sittings: entries with at most 2 minutes between one's end and the next one's start (decision 038). */
    sessions: z.number().int(),
    /** Minutes of each of the seven days, oldest first (day 0 is since … since + 24 h). */
    daily_minutes: z.array(z.number().int()),
    /**
     * Seconds heard each of the seven days, rounded up: a day heard for under half a minute has 0 minutes and some
     * seconds, so the web can say "Under a minute" of it rather than "0 minutes".
     */
    daily_seconds: z.array(z.number().int()),
  }),
  /** Sittings in the whole history, as `week.sessions`. */
  total_sessions: z.number().int(),
  /** Newest first, at most 5; a stretch under 30 s only when nothing longer played in its sitting. */
  last_sessions: historyListSchema,
  /**
   * Stretches under 30 s left out of `last_sessions` because something longer played in their sitting, among those
   * begun since the oldest listed (all of them when fewer than 5 are listed), so the web can say why they are missing.
   */
  tries_not_listed: z.number().int(),
  reminder: reminderSchema,
});
export type Practice = z.infer<typeof practiceSchema>;

// Recommendations (Pro; others get 403 plan_required, planRequiredErrorSchema in own.ts)

/** One line saying why, e.g. "Because you chose Sleep". */
const reason = z.string();
export const recommendationsSchema = z.object({
  categories: z.array(z.object({ id: z.number().int(), name: z.string(), reason })),
  messages: z.array(
    z.object({
      id: z.number().int(),
      message_text: z.string(),
      category_id: z.number().int(),
      category_name: z.string(),
      reason,
    }),
  ),
  tracks: z.array(z.object({ id: z.number().int(), kind: z.enum(AUDIO_KINDS), name: z.string(), reason })),
  programs: z.array(z.object({ slug: z.string(), title: z.string(), reason })),
  /**
   * Whether they were ranked for the person; false: the library's general starting points, each "A gentle place to
   * start", given when there was nothing to go on or what there was matched nothing (decision 099).
   */
  ranked: z.boolean(),
  /** What they were drawn from (all false and empty: nothing to go on). */
  based_on: z.object({
    goals: z.array(goalSchema),
    free_text: z.boolean(),
    own_messages: z.boolean(),
    history: z.boolean(),
  }),
});
export type Recommendations = z.infer<typeof recommendationsSchema>;

// Staff editing of programs (ADMIN_API.programs, .program)

export const PROGRAM_DAYS_FROM_SAME_DAY = 'Two days cannot come from the same day.';

/**
 * Whether no two days name the same day they come from (from_day). A failure is one error on the days
 * list, however many days repeat one (seven copies of day 1 are one mistake, said once).
 */
export function daysFromDistinctDays(days: ReadonlyArray<{ from_day?: number | null | undefined }>): boolean {
  const named = days.flatMap((day) => (day.from_day == null ? [] : [day.from_day]));
  return new Set(named).size === named.length;
}

/**
 * The largest body of a program's write: its most, 60 days of a 2,000-character intro and 60 messages of 200
 * characters, of up to 4 bytes each in UTF-8, with their titles and layers (3.5 MB), where most JSON bodies take
 * 1 MiB (docs/decisions/067-a-json-body-holds-what-its-fields-allow.md).
 */
export const PROGRAM_BODY_BYTES = 4 * 1024 * 1024;
/**
 * The most values (list items, object members) a program's write holds, counted before it is parsed: each day's
 * messages, and 16 for each of its fields and layers' (docs/decisions/069-a-json-body-holds-the-values-its-call-takes.md).
 */
export const PROGRAM_BODY_VALUES =
  PROGRAM_DAYS_MAX * (16 + PROGRAM_DAY_MESSAGES_MAX + PROGRAM_DAY_LAYERS_MAX * 16) + 1024;

/**
 * A program as staff write it (also the CLI's import file, one program per file or a list). `stored`: the program a
 * replace writes over, whose texts sent back as they are pass (`StoredProgramTexts`).
 */
export const adminProgramWriteSchemaOf = (stored?: StoredProgramTexts) =>
  z.object({
    slug: programSlugSchema,
    title: typedText(stored?.title).max(PROGRAM_TITLE_MAX, maxCharacters(PROGRAM_TITLE_MAX)),
    summary: typedText(stored?.summary).max(PROGRAM_SUMMARY_MAX, maxCharacters(PROGRAM_SUMMARY_MAX)),
    goals: goalListSchema.default([]),
    days: z
      .array(programDayWriteSchemaOf(stored))
      .min(1, { error: 'A program needs at least one day.' })
      .max(PROGRAM_DAYS_MAX, maxElements(PROGRAM_DAYS_MAX))
      .refine(daysFromDistinctDays, { error: PROGRAM_DAYS_FROM_SAME_DAY }),
    /**
     * When a program is replaced: its updated_at as the editor loaded it (or as its last save answered). The replace
     * is refused 409 `changed_meanwhile` ("This program was changed meanwhile, …") when someone saved the program
     * since, so a stale form neither undoes their edit nor moves progress by day numbers that changed. Files leave
     * it out (docs/decisions/091-the-rest-of-a-staff-library-kept-apart-and-not-saved-over.md).
     */
    updated_at: z.string().optional(),
  });
export const adminProgramWriteSchema = adminProgramWriteSchemaOf();
export type AdminProgramWrite = z.input<typeof adminProgramWriteSchema>;

export const adminProgramSchema = z.object({
  ...programCore,
  days: z.array(programDaySchema),
  position: z.number().int(),
  /** How many people have completed at least one day. */
  people_started: z.number().int(),
  updated_at: z.string(),
});
export type AdminProgram = z.infer<typeof adminProgramSchema>;

/** A program as it can be written back (a file, a form): no track ids, counts or dates; each day names its number. */
export const programWriteOf = (program: AdminProgram): AdminProgramWrite => ({
  slug: program.slug,
  title: program.title,
  summary: program.summary,
  goals: program.goals,
  days: program.days.map((day) => ({
    from_day: day.day,
    title: day.title,
    intro: day.intro,
    minutes: day.minutes,
    messages: day.messages,
    layers: day.layers.map((layer) => {
      if (layer.kind !== 'track') return layer;
      const { track_id: _trackId, ...named } = layer;
      return named;
    }),
  })),
});
export const adminProgramListSchema = z.array(
  z.object({ ...programCore, day_count: z.number().int(), position: z.number().int(), updated_at: z.string() }),
);
export type AdminProgramList = z.infer<typeof adminProgramListSchema>;
