import { z } from 'zod';
import { pendingEmailChangeSchema } from './auth';
import { ownCategoryListSchema, playerStateSchema } from './own';
import { profileSchema } from './profile';
import { subliminalSchema } from './subliminals';
import { supportRequestExportSchema } from './support';
import { historyListSchema, onboardingSchema, programProgressSchema, reminderSchema } from './guidance';

// A module of its own: the export gathers every kind of data, and a page that reads the profile
// should not build the schemas of all of them.

/**
 * Everything kept about a person (GET /api/user/export/): one key per section, so a new kind of data is
 * one more key here and one more reader on the server (docs/product/accounts.md#downloading-ones-data).
 */
export const userExportSchema = z.object({
  exported_at: z.string(),
  account: z.object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    is_active: z.boolean(),
    date_joined: z.string(),
    last_login: z.string().nullable(),
    /** A change of address asked for and not yet confirmed, kept until it is confirmed, cancelled or replaced. */
    pending_email_change: pendingEmailChangeSchema.nullable(),
  }),
  profile: profileSchema,
  own_categories: ownCategoryListSchema,
  player: playerStateSchema,
  saved_subliminals: z.array(subliminalSchema),
  support_requests: z.array(supportRequestExportSchema),
  /** One's own files as they are listed; the files themselves are downloaded from their screens. */
  own_music: z.array(z.object({ name: z.string(), bytes: z.number().int(), created_at: z.string() })),
  /** The names of one's own tracks deleted, kept so that a save still playing one leaves it out (docs/product/api.md#saved-and-shared). */
  deleted_own_music: z.array(z.object({ name: z.string(), deleted_at: z.string() })),
  voice_recordings: z.array(
    z.object({ text: z.string(), duration_ms: z.number().int(), bytes: z.number().int(), created_at: z.string() }),
  ),
  /**
   * What is kept of the person's payments: their Stripe customer and subscription as last reported by
   * Stripe (null before a first Checkout), and any second subscription cancelled and refunded
   * (docs/product/plans.md#two-subscriptions-paid-at-the-same-moment). Cards and invoices stay at Stripe.
   */
  billing: z.object({
    stripe_customer_id: z.string().nullable(),
    subscription: z
      .object({
        id: z.string(),
        status: z.string().nullable(),
        price_id: z.string().nullable(),
        current_period_end: z.string().nullable(),
        cancel_at_period_end: z.boolean(),
        cancel_at: z.string().nullable(),
      })
      .nullable(),
    second_subscriptions: z.array(
      z.object({
        id: z.string(),
        kept_subscription_id: z.string(),
        found_at: z.string(),
        settled_at: z.string().nullable(),
        refund_id: z.string().nullable(),
        refunded_amount: z.number().int().nullable(),
        currency: z.string().nullable(),
      }),
    ),
  }),
  /** Onboarding answers, reminder, progress in programs and the whole listening history (guidance.ts). */
  guidance: z.object({
    onboarding: onboardingSchema,
    reminder: reminderSchema,
    programs: z.array(programProgressSchema),
    listening_history: historyListSchema,
  }),
});
export type UserExport = z.infer<typeof userExportSchema>;
