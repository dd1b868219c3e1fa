import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { AUDIO_KINDS } from '@shared/contract';

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
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`)],
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

export const messageCategories = pgTable(
  'message_categories',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('message_categories_name_unique').on(t.name)],
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
    uniqueIndex('audio_items_kind_name_unique').on(t.kind, t.name),
    check('audio_items_kind_check', sql`${t.kind} in (${sql.raw(AUDIO_KINDS.map((kind) => `'${kind}'`).join(', '))})`),
  ],
);

export const desktopApplications = pgTable('desktop_applications', {
  id: serial('id').primaryKey(),
  applicationVersion: text('application_version').notNull(),
  description: text('description').notNull().default(''),
  /** Path relative to the media folder. */
  applicationFile: text('application_file').notNull(),
  createdAt: createdAt(),
});

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
    createdAt: createdAt(),
  },
  (t) => [index('own_categories_user_idx').on(t.userId)],
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
    /** Set while shared by link; a new share makes a new token. */
    shareToken: text('share_token').unique(),
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('saved_subliminals_user_idx').on(t.userId)],
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
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_accounts_customer_unique').on(t.stripeCustomerId),
    index('billing_accounts_subscription_idx').on(t.stripeSubscriptionId),
  ],
);

/** Stripe events already processed, by their id, so a replayed or duplicated webhook does nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
