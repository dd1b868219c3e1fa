import { z } from 'zod';
import { SUBSCRIPTION_PLANS } from '../constants';
import { typedText } from './fields';
import { maxCharacters } from './plain';

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
const PROFILE_NAME_MAX = 150;
const profileName = (stored?: string) => typedText(stored).max(PROFILE_NAME_MAX, maxCharacters(PROFILE_NAME_MAX));
/**
 * The update's fields for a profile as stored: every update sends both names, so a name stored with a control
 * character before decision 063 refused it is let through as it is, and a change of the other one is not refused
 * for it (docs/decisions/129-a-removed-day-comes-back-a-resend-names-both-mails-an-old-text-stays.md).
 */
export const profileUpdateFieldsOf = (stored: { first_name: string; last_name: string }) =>
  z.object({ first_name: profileName(stored.first_name), last_name: profileName(stored.last_name) });
export type ProfileUpdateFields = z.infer<ReturnType<typeof profileUpdateFieldsOf>>;
