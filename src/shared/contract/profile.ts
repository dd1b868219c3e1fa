import { z } from 'zod';
import { SUBSCRIPTION_PLANS } from '../constants';
import { ownCategoryListSchema, playerStateSchema } from './own';
import { subliminalSchema } from './subliminals';
import { supportRequestExportSchema } from './support';
import { historyListSchema, onboardingSchema, programProgressSchema, reminderSchema } from './guidance';

export const subscriptionPlanSchema = z.enum(SUBSCRIPTION_PLANS);

export const profileSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  user_email: z.string(),
  /** Signed absolute URL (under /media/, or the S3 storage's own), or null when the user has none. */
  profile_image: z.string().nullable(),
  subscription_plan: subscriptionPlanSchema,
});
export type Profile = z.infer<typeof profileSchema>;

/** The text fields of the multipart profile update; the optional file is `profile_image`. */
export const profileUpdateFieldsSchema = z.object({
  first_name: z.string().trim().min(1).max(150),
  last_name: z.string().trim().min(1).max(150),
});
export type ProfileUpdateFields = z.infer<typeof profileUpdateFieldsSchema>;

/**
 * Everything kept about a person (GET /api/user/export/): one key per section, so a new kind of data is
 * one more key here and one more reader on the server (docs/product/api.md#export).
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
  }),
  profile: profileSchema,
  own_categories: ownCategoryListSchema,
  player: playerStateSchema,
  saved_subliminals: z.array(subliminalSchema),
  support_requests: z.array(supportRequestExportSchema),
  /** Onboarding answers, reminder, progress in programs and the whole listening history (guidance.ts). */
  guidance: z.object({
    onboarding: onboardingSchema,
    reminder: reminderSchema,
    programs: z.array(programProgressSchema),
    listening_history: historyListSchema,
  }),
});
export type UserExport = z.infer<typeof userExportSchema>;
