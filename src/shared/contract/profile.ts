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
const profileName = () => typedText().max(PROFILE_NAME_MAX, maxCharacters(PROFILE_NAME_MAX));
export const profileUpdateFieldsSchema = z.object({ first_name: profileName(), last_name: profileName() });
export type ProfileUpdateFields = z.infer<typeof profileUpdateFieldsSchema>;
