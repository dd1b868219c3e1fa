import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { AUDIO_KINDS, HISTORY_KINDS, JOB_STATUSES } from '@shared/contract';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Kept as typed, for display; uniqueness ignores case. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    isActive: boolean('is_active').notNull().default(false),
    isStaff: boolean('is_staff').notNull().default(false),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /**
     * When staff last deactivated the account (admin or CLI); kept when they reactivate it. An inactive
     * account with it set gets no activation link (docs/product/accounts.md#inactive-accounts).
     */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /**
     * The address the person asked to change to, while its link waits to be opened, and when they asked (signed
     * into the link, so a cancel or a newer request refuses it). Both or neither (docs/decisions/061-…).
     */
    pendingEmail: text('pending_email'),
    pendingEmailAt: timestamp('pending_email_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    check('users_pending_email_check', sql`(${t.pendingEmail} is null) = (${t.pendingEmailAt} is null)`),
  ],
);

/** One row per login; its tokens name it, so revoking it ends them at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const profiles = pgTable(
  'profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Path relative to the media folder. */
    profileImage: text('profile_image'),
    subscriptionPlan: text('subscription_plan', { enum: ['basic', 'intermediate', 'pro'] })
      .notNull()
      .default('basic'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('profiles_plan_check', sql`${t.subscriptionPlan} in ('basic', 'intermediate', 'pro')`)],
);

/**
 * Unicode's characters drawn as nothing (Default_Ignorable_Code_Point: zero-width spaces and joiners, the word
 * joiner, byte-order mark, direction marks and controls, variation selectors, fillers, tags), as a PostgreSQL
 * bracket expression.
 */
const DRAWN_AS_NOTHING =
  "'[\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8\\U0001BCA0-\\U0001BCA3\\U0001D173-\\U0001D17A\\U000E0000-\\U000E0FFF]'";

/**
 * A name as a reader tells it from another: what is drawn, whatever its case. "Calm", "CALM" and "Ca\u200Blm"
 * are one name; so are "👨‍👩‍👧" and "👨👩👧", which a reader can tell apart, and that is the price
 * (docs/decisions/063-typed-text-shows-what-it-holds.md).
 */
export const displayedName = (name: SQL.Aliased | SQL | { getSQL(): SQL }) =>
  sql`lower(regexp_replace(${name}, ${sql.raw(DRAWN_AS_NOTHING)}, '', 'g'))`;

export const messageCategories = pgTable(
  'message_categories',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  // A name is unique as a reader tells it from another: whatever its case, and whatever is drawn as nothing in it
  // ("Calm", "calm" and "Ca\u2060lm" are one name), as a person's own are; the contract trims it
  // (docs/decisions/084-a-staff-edit-of-a-name-names-the-name-it-began-from.md).
  (t) => [uniqueIndex('message_categories_displayed_name_unique').on(displayedName(t.name))],
);

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => messageCategories.id, { onDelete: 'cascade' }),
    messageText: text('message_text').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('messages_category_id_idx').on(t.categoryId)],
);

export const audioItems = pgTable(
  'audio_items',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: AUDIO_KINDS }).notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Paths relative to the media folder. */
    coverImage: text('cover_image'),
    audioFile: text('audio_file').notNull(),
    position: integer('position').notNull().default(0),
    dateAdded: timestamp('date_added', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A name is unique within its library as a reader tells it from another: whatever its case, and whatever is
    // drawn as nothing in it ("Calm", "calm" and "Ca\u2060lm" are one name), as category names are; the contract
    // trims it (docs/decisions/091-the-rest-of-a-staff-library-kept-apart-and-not-saved-over.md).
    uniqueIndex('audio_items_kind_displayed_name_unique').on(t.kind, displayedName(t.name)),
    check('audio_items_kind_check', sql`${t.kind} in (${sql.raw(AUDIO_KINDS.map((kind) => `'${kind}'`).join(', '))})`),
  ],
);

/**
 * Library tracks staff removed, by the id they had: a saved sound that still names one is told apart
 * from one naming a track that never was (docs/product/api.md#saved-and-shared).
 */
export const removedAudioItems = pgTable('removed_audio_items', {
  id: integer('id').primaryKey(),
  kind: text('kind', { enum: AUDIO_KINDS }).notNull(),
  name: text('name').notNull(),
  removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the starting content's seed has put in once (docs/decisions/009-starting-content-is-ours-and-seeded-at-start.md):
 * a category by its name, a program by its slug, a library track by its library and name, each lower-cased, and
 * by its row. A seeded item staff delete or rename is not put in again.
 */
export const seededContent = pgTable(
  'seeded_content',
  {
    /** `category`, `program`, or `audio:<library>`. */
    kind: text('kind').notNull(),
    /** The name (or slug) the seed gave it, lower-cased. */
    key: text('key').notNull(),
    seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
    /** A track's row, followed through staff's renames; null once staff delete it (and for the other kinds). */
    audioItemId: integer('audio_item_id').references(() => audioItems.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);

export const desktopApplications = pgTable(
  'desktop_applications',
  {
    id: serial('id').primaryKey(),
    applicationVersion: text('application_version').notNull(),
    description: text('description').notNull().default(''),
    /** Path relative to the media folder, ending with the installer's extension. */
    applicationFile: text('application_file').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One installer of each type (its extension: what tells platforms apart and names the download) per
    // version, whatever the version's case.
    uniqueIndex('desktop_applications_version_type_unique').on(
      sql`lower(${t.applicationVersion})`,
      sql`substring(${t.applicationFile} from '[.][^./]*$')`,
    ),
  ],
);

/** A person's own message categories (their order: position, then id). */
export const ownCategories = pgTable(
  'own_categories',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    /** Set while the category is shared by link (Pro); a new share makes a new token. */
    shareToken: text('share_token').unique(),
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    /** The browser's key for the press that copied it from a share link (null otherwise): one copy per key and person. */
    copyKey: uuid('copy_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('own_categories_user_idx').on(t.userId),
    uniqueIndex('own_categories_user_copy_key_idx').on(t.userId, t.copyKey),
    // A person's names are unique as they are read, whatever their case ("Calm", "calm" and "\u200bCalm" are one
    // name), as the library's are; the contract trims them
    // (docs/decisions/055-own-category-names-are-unique-whatever-their-case.md, 063-typed-text-shows-what-it-holds.md).
    uniqueIndex('own_categories_user_displayed_name_unique').on(t.userId, displayedName(t.name)),
  ],
);

/** Their messages; `user_id` repeated so a person's count and ownership need no join. */
export const ownMessages = pgTable(
  'own_messages',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => ownCategories.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageText: text('message_text').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('own_messages_category_idx').on(t.categoryId), index('own_messages_user_idx').on(t.userId)],
);

/** A person's own music (Pro): uploaded audio files, played as a layer of their sessions. */
export const ownTracks = pgTable(
  'own_tracks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Relative path in the media store: own-music/<user id>/<sha-256>.<ext>, so the same bytes are one track of a person's. */
    audioFile: text('audio_file').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('own_tracks_user_file_unique').on(t.userId, t.audioFile)],
);

/**
 * A person's uploads under way, one row each from before its body is read until its request ends, held until
 * `heldUntil` and renewed while it lasts: every worker and server counts them, so a person's uploads at once stay
 * few, and a request that died holding one no longer counts once it lapses (docs/decisions/074-a-persons-uploads-at-once-are-few.md).
 */
export const uploadSlots = pgTable(
  'upload_slots',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the upload would add: 'own-music' (counted against the tracks left), or the route's name. */
    kind: text('kind').notNull(),
    heldUntil: timestamp('held_until', { withTimezone: true }).notNull(),
    /**
     * The bytes of the person's room its upload may take, kept from the bytes left that other uploads of the same
     * kind are told (own music: its declared length, or all it may take when sent without one; 0 for the others), so
     * that uploads at once stage no more than the room (docs/decisions/076-an-upload-keeps-the-room-it-may-take.md).
     */
    bytes: integer('bytes').notNull().default(0),
  },
  (t) => [index('upload_slots_user_idx').on(t.userId)],
);

/**
 * A person's own tracks they deleted, by the id they had, with the name they had: a Save from another
 * tab still playing one is told apart from one naming a track that never was theirs
 * (docs/product/api.md#saved-and-shared). Gone with the account.
 */
export const removedOwnTracks = pgTable(
  'removed_own_tracks',
  {
    id: integer('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('removed_own_tracks_user_idx').on(t.userId)],
);

/**
 * Recordings of a person's own voice (Pro): one per message text, spoken in place of the synthesiser
 * for that message (docs/product/api.md#own-voice).
 */
export const voiceRecordings = pgTable(
  'voice_recordings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** Relative path in the media store: own-voice/<user id>/<sha-256>.wav. */
    audioFile: text('audio_file').notNull(),
    bytes: integer('bytes').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** When this take was recorded: a new take of the same text replaces the file and this. */
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('voice_recordings_user_text_unique').on(t.userId, t.text)],
);

/** The player as a person last left it, on any device: the playlist and the settings. */
export const playerStates = pgTable('player_states', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  playlist: jsonb('playlist').notNull(),
  settings: jsonb('settings').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A named, saved subliminal: its messages and settings as saved (Intermediate and up). */
export const savedSubliminals = pgTable(
  'saved_subliminals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    playlist: jsonb('playlist').notNull(),
    settings: jsonb('settings').notNull(),
    /** Its sound mix (layers, levels, volume) as the contract's soundMixSchema; null when none was saved (decision 021). */
    sound: jsonb('sound'),
    /**
     * How many messages and sound layers it holds, for the list: kept by PostgreSQL from the playlist and
     * the sound in the very write that sets them, so the list reads neither (a large playlist is stored
     * out of line, and reading 2,000 of them took seconds). 0 for anything but an array, as in no sound.
     */
    messageCount: integer('message_count')
      .notNull()
      .generatedAlwaysAs(
        sql`case jsonb_typeof("playlist") when 'array' then jsonb_array_length("playlist") else 0 end`,
      ),
    layerCount: integer('layer_count')
      .notNull()
      .generatedAlwaysAs(
        sql`case jsonb_typeof("sound" -> 'layers') when 'array' then jsonb_array_length("sound" -> 'layers') else 0 end`,
      ),
    /** Set while shared by link; a new share makes a new token. */
    shareToken: text('share_token').unique(),
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    /** The browser's key for the press that copied it from a share link (null otherwise): one copy per key and person. */
    copyKey: uuid('copy_key'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('saved_subliminals_user_idx').on(t.userId),
    uniqueIndex('saved_subliminals_user_copy_key_idx').on(t.userId, t.copyKey),
  ],
);

/** A message sent with the portal's support form; the sender's e-mail and plan as they were then. */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    plan: text('plan', { enum: ['basic', 'intermediate', 'pro'] }).notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The plan included priority support when it was sent (docs/product/plans.md). */
    priority: boolean('priority').notNull(),
    createdAt: createdAt(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
  },
  (t) => [index('support_requests_user_idx').on(t.userId), index('support_requests_created_idx').on(t.createdAt)],
);

/**
 * A person's Stripe customer and subscription, as the last applied webhook told them (decisions §9).
 * The plan itself stays in `profiles`; this row is what it was derived from.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Stripe's subscription status (active, trialing, past_due, canceled, unpaid, ...). */
    subscriptionStatus: text('subscription_status'),
    subscriptionPriceId: text('subscription_price_id'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** When a cancelled subscription stops (Stripe's cancel_at), if it is set to stop. */
    cancelAt: timestamp('cancel_at', { withTimezone: true }),
    /** The `created` time of the subscription event last applied: an older one arriving later is ignored. */
    subscriptionEventAt: timestamp('subscription_event_at', { withTimezone: true }),
    /**
     * Set while a request opens a Checkout page for the person, until when it may take to: every other
     * request (another worker's, another server's) waits its turn, then finds that page open and answers
     * it (docs/product/api.md#billing). Past it, a request that died holding it no longer counts.
     */
    checkoutOpeningUntil: timestamp('checkout_opening_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_accounts_customer_unique').on(t.stripeCustomerId),
    index('billing_accounts_subscription_idx').on(t.stripeSubscriptionId),
  ],
);

/**
 * A person's second live subscription (two Checkouts paid at the same moment): the webhook follows the
 * other one and cancels this one at Stripe, refunding what it charged (docs/product/plans.md). Its own
 * later events change nothing.
 */
export const duplicateSubscriptions = pgTable(
  'duplicate_subscriptions',
  {
    subscriptionId: text('subscription_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The subscription followed instead. */
    keptSubscriptionId: text('kept_subscription_id').notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    /** Cancelled at Stripe and its payment refunded (or nothing was paid); null while still to do. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    refundId: text('refund_id'),
    /** In the currency's smallest unit, as Stripe counts it. */
    refundedAmount: integer('refunded_amount'),
    currency: text('currency'),
    /** Stripe refused for good (not a failure to reach it): staff finish it at Stripe; no more attempts. */
    failure: text('failure'),
  },
  (t) => [index('duplicate_subscriptions_user_idx').on(t.userId)],
);

/** Stripe events already processed, by their id, so a replayed or duplicated webhook does nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Guidance settings of a person (docs/product/guidance.md): the onboarding answers, the opt-in
 * reminder and when they last deleted their history. No row (or no `completed_at`) means not
 * answered yet.
 */
export const guidancePreferences = pgTable('guidance_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Goal ids (GUIDANCE_GOALS), in the order chosen. */
  goals: jsonb('goals').$type<string[]>().notNull().default([]),
  freeText: text('free_text').notNull().default(''),
  headphones: boolean('headphones'),
  sessionMinutes: integer('session_minutes'),
  skipped: boolean('skipped').notNull().default(false),
  /** Set by the first answer or skip; null while the onboarding is still to be shown. */
  completedAt: timestamp('completed_at', { withTimezone: true }),
  reminderEnabled: boolean('reminder_enabled').notNull().default(false),
  /** "HH:MM" in the person's local time. */
  reminderTime: text('reminder_time'),
  /**
   * When the person last deleted their listening history: a record of a session begun before it, sent
   * late by another browser, is not added (docs/decisions/054-a-deleted-history-stays-deleted.md).
   */
  historyDeletedAt: timestamp('history_deleted_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Curated multi-day programs: seeded, and edited by staff (their order: position, then id). */
export const programs = pgTable(
  'programs',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    goals: jsonb('goals').$type<string[]>().notNull().default([]),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('programs_slug_unique').on(t.slug)],
);

/** A program's day: its intro and its session (messages, sound layers as in the contract, a length). */
export const programDays = pgTable(
  'program_days',
  {
    id: serial('id').primaryKey(),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    title: text('title').notNull(),
    intro: text('intro').notNull(),
    minutes: integer('minutes').notNull(),
    messages: jsonb('messages').$type<string[]>().notNull(),
    layers: jsonb('layers').notNull(),
  },
  (t) => [uniqueIndex('program_days_program_day_unique').on(t.programId, t.day)],
);

/** The days of a program a person has completed (one row per day; resetting deletes them). */
export const programProgress = pgTable(
  'program_progress',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.programId, t.day] }),
    index('program_progress_program_idx').on(t.programId),
  ],
);

/**
 * When a person started a program: the first session of one of its days the server recorded (resetting deletes it;
 * deleting the history keeps it, as it keeps the days done). docs/product/guidance.md#programs
 */
export const programStarts = pgTable(
  'program_starts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.programId] }), index('program_starts_program_idx').on(t.programId)],
);

/** Each finished or stopped session of a person; they can delete it all. */
export const listeningHistory = pgTable(
  'listening_history',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: HISTORY_KINDS }).notNull(),
    ref: text('ref').notNull().default(''),
    title: text('title').notNull(),
    seconds: integer('seconds').notNull(),
    finished: boolean('finished').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    /** The browser's key for the record (null when it sent none): one entry per key and person. */
    recordKey: uuid('record_key'),
  },
  (t) => [
    index('listening_history_user_started_idx').on(t.userId, t.startedAt),
    uniqueIndex('listening_history_user_record_key_idx').on(t.userId, t.recordKey),
    check('listening_history_seconds_check', sql`${t.seconds} between 1 and 86400`),
    check(
      'listening_history_kind_check',
      sql`${t.kind} in (${sql.raw(HISTORY_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);

/**
 * Background work that must survive a crash: written in the same transaction as the row that causes
 * it, claimed with a lease, retried with back-off. `failed` waits for its next attempt at `run_at`;
 * `dead` has used every attempt and is kept for staff to retry.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** While running: the runner holding it, until when (it renews the lease while the job runs). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    /** At most one queued, failed or running job per key (e.g. one build of the audio library at a time). */
    uniqueKey: text('unique_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_status_run_at_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_unique_key_pending')
      .on(t.uniqueKey)
      .where(sql`${t.status} in ('queued', 'running', 'failed')`),
    check('jobs_status_check', sql`${t.status} in ('queued', 'running', 'done', 'failed', 'dead')`),
  ],
);
