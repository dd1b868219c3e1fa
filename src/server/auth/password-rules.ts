import { NEW_PASSWORD_MAX_LENGTH } from '@shared/contract';
import { maxCharactersMessage } from '@shared/contract/plain';
import { isCommonPassword } from './common-passwords';

// Django's default AUTH_PASSWORD_VALIDATORS, with their messages: similarity to the e-mail,
// minimum length 8, common passwords, entirely numeric.

export const MIN_PASSWORD_LENGTH = 8;
const MAX_SIMILARITY = 0.7;

export const PASSWORD_MESSAGES = {
  tooShort: `This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`,
  tooCommon: 'This password is too common.',
  entirelyNumeric: 'This password is entirely numeric.',
  tooSimilar: 'The password is too similar to the email address.',
  tooLong: maxCharactersMessage(NEW_PASSWORD_MAX_LENGTH),
} as const;

/** Every rule the password breaks, in Django's order; empty when it is acceptable. */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (isTooSimilar(password, email)) problems.push(PASSWORD_MESSAGES.tooSimilar);
  if (password.length < MIN_PASSWORD_LENGTH) problems.push(PASSWORD_MESSAGES.tooShort);
  if (isCommonPassword(password)) problems.push(PASSWORD_MESSAGES.tooCommon);
  if (/^\d+$/.test(password)) problems.push(PASSWORD_MESSAGES.entirelyNumeric);
  if (password.length > NEW_PASSWORD_MAX_LENGTH) problems.push(PASSWORD_MESSAGES.tooLong);
  return problems;
}

/** Django's UserAttributeSimilarityValidator on the e-mail: the whole address and each of its word parts. */
export function isTooSimilar(password: string, email: string): boolean {
  if (!email) return false;
  const lowered = password.toLowerCase();
  const value = email.toLowerCase();
  const parts = [...value.split(/[^\p{L}\p{N}_]+/u).filter(Boolean), value];
  return parts.some((part) => !exceedsMaximumLengthRatio(lowered, part) && quickRatio(lowered, part) >= MAX_SIMILARITY);
}

/** Django skips values so much shorter than the password that no ratio could reach the limit. */
function exceedsMaximumLengthRatio(password: string, value: string): boolean {
  return password.length >= 10 * value.length && value.length < (MAX_SIMILARITY / 2) * password.length;
}

/** Python's difflib.SequenceMatcher(a, b).quick_ratio(), which Django uses: shared characters as a multiset. */
export function quickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const available = new Map<string, number>();
  for (const char of b) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of a) {
    const left = available.get(char) ?? 0;
    if (left > 0) {
      available.set(char, left - 1);
      matches++;
    }
  }
  return (2 * matches) / total;
}
