import { z } from 'zod';
import { SUBSCRIPTION_PLANS } from '../constants';

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
