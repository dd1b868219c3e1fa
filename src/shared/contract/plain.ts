// The contract's plain constants, without zod: a page that only shows one of these texts imports
// it from here and does not load the schemas. auth.ts, billing.ts and errors.ts re-export them.

import type { SubscriptionPlan } from '../constants';
import { formatInteger } from '../numbers';

/** The terms require it; the sign-up form asks for it in these words. */
export const TERMS_CONFIRMATION =
  'I am at least 18 years old, or have the consent of a parent or guardian, and I accept the terms and the privacy policy.';
export const TERMS_NOT_ACCEPTED =
  'Confirm that you are at least 18 (or have a parent’s or guardian’s consent) and accept the terms.';

/**
 * djoser's words for a sign-up (or a new e-mail address) that an account already has; the sign-up form
 * answers them with the way to that account (docs/decisions/149-a-taken-address-leads-to-its-account.md).
 */
export const EMAIL_TAKEN = 'user with this email already exists.';

/**
 * The header of set_password's 204 (its body stays djoser's, empty): how many live sessions other than the caller's
 * the change ended, for the toast to say what happened (docs/product/accounts.md#self-service). Here, without zod,
 * so the profile's page reads it without loading the schemas.
 */
export const SESSIONS_ENDED_HEADER = 'Sessions-Ended';

/** A refused login's code when the password was right but the account is not activated yet. */
export const ACCOUNT_INACTIVE_CODE = 'account_inactive';

/**
 * The `uid` of an account's e-mailed links (activation, password reset): its id's digits in base64url, as
 * Django's `urlsafe_base64_encode(force_bytes(pk))`. The server makes the links with it, and the browser that
 * signed the account up knows its link by it (docs/product/accounts.md#activation).
 */
export const accountUid = (id: number) => btoa(String(id)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** `{"field": ["message", ...]}`; errors of the whole body go under `non_field_errors`. */
export const NON_FIELD_ERRORS = 'non_field_errors';

/** The plans one pays for (billing.ts re-exports them). */
export const PAID_PLANS = ['intermediate', 'pro'] as const satisfies readonly SubscriptionPlan[];
export type PaidPlan = (typeof PAID_PLANS)[number];

/** Whether a Stripe subscription has ended for good (canceled, incomplete_expired): it bills no more. */
export const subscriptionEnded = (status: string | null | undefined) =>
  status === 'canceled' || status === 'incomplete_expired';

/**
 * Whether a Stripe subscription still exists and may be paid (active, trialing, past_due, unpaid,
 * paused): Checkout would sell a second one, and deleting the account cancels it at once.
 */
export const subscriptionLive = (status: string | null | undefined) =>
  status === 'active' || status === 'trialing' || status === 'past_due' || status === 'unpaid' || status === 'paused';

/**
 * A text longer than its field's limit: DRF's CharField max_length, as every schema's `.max(n, …)` and the
 * character counts word it, its number grouped as the spec writes it ("no more than 5,000 characters").
 */
export const maxCharactersMessage = (n: number) => `Ensure this field has no more than ${formatInteger(n)} characters.`;
/** A schema's `.max(n, …)` option for a text: maxCharactersMessage. */
export const maxCharacters = (n: number) => ({ error: maxCharactersMessage(n) });

/** A required text left empty (MESSAGES.blank), here for screens that load no schema. */
export const FIELD_BLANK = 'This field may not be blank.';

/**
 * Whether a text shows anything: a character other than white space, control characters, those
 * Unicode says to draw as nothing (zero-width space, joiners, the byte-order mark, the Hangul filler)
 * and combining marks (accents, which show only on a letter before them: "\u0301\u0301" is two accents
 * on nothing). A name of only such characters looks empty everywhere it appears, so it counts as blank.
 */
export const hasVisibleText = (text: string) => /[^\s\p{Cc}\p{Default_Ignorable_Code_Point}\p{M}]/u.test(text);

/** How many characters the contract counts in a text: code points, as its `max` does (an emoji is one, not two). */
export const characterCount = (text: string) => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The longest start of `text` within `max` characters as the contract counts them (code points), cut between
 * two of what a reader sees as one character (graphemes): never inside a surrogate pair, an emoji's ZWJ
 * sequence (👨‍👩‍👧) or a letter and its accents. Only a first grapheme longer than `max` alone is cut inside,
 * between code points.
 */
export function leadingCharacters(text: string, max: number): string {
  let kept = '';
  let count = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = characterCount(segment);
    if (count + size > max) {
      if (count === 0) return [...segment].slice(0, max).join('');
      break;
    }
    kept += segment;
    count += size;
  }
  return kept;
}

/** One character drawn as nothing: white space, a control character or one Unicode says to ignore in display. */
const INVISIBLE = /^[\s\p{Cc}\p{Default_Ignorable_Code_Point}]$/u;
/** Invisible, yet part of the emoji before it: a variation selector (❤️) or a tag (a subdivision's flag). */
const isEmojiPart = (codePoint: number) =>
  (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
  (codePoint >= 0xe0020 && codePoint <= 0xe007f) ||
  (codePoint >= 0xe0100 && codePoint <= 0xe01ef);

/**
 * A typed text without what is drawn as nothing at either end: white space, zero-width spaces and joiners,
 * the word joiner, byte-order marks, direction marks and controls (docs/decisions/063-typed-text-shows-what-it-holds.md).
 * A variation selector or tag that ends an emoji stays with it; joiners inside the text (👨‍👩‍👧) stay. Read a
 * character at a time from each end, so a long run of invisible characters costs no more than its length.
 */
export function trimInvisible(text: string): string {
  let start = 0;
  while (start < text.length) {
    const character = String.fromCodePoint(text.codePointAt(start)!);
    if (!INVISIBLE.test(character)) break;
    start += character.length;
  }
  let end = text.length;
  while (end > start) {
    const low = text.charCodeAt(end - 1);
    const size = low >= 0xdc00 && low <= 0xdfff && end - 2 >= start ? 2 : 1;
    const character = text.slice(end - size, end);
    if (!INVISIBLE.test(character) || isEmojiPart(character.codePointAt(0)!)) break;
    end -= size;
  }
  return text.slice(start, end);
}

/**
 * A typed text's length as its field's limit counts it: without what is drawn as nothing at its ends (typedText
 * drops it first), in characters as zod's `.max` counts them (code points: an emoji is one).
 */
export const textLength = (text: string) => characterCount(trimInvisible(text));

/**
 * The controls that embed, override or isolate a direction (U+202A–U+202E, U+2066–U+2069): inside a text
 * they reorder how the rest of it is shown ("txt.exe" shown as "exe.txt"), so a typed text may not hold one.
 */
const DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
export const DIRECTION_CONTROL_REFUSED =
  'This text holds invisible characters that change the direction it is shown in (U+202A–U+202E, U+2066–U+2069). Type it again rather than pasting it.';

/**
 * Control characters other than tab and line breaks (Unicode's Cc: U+0000–U+001F, U+007F–U+009F, less U+0009, U+000A,
 * U+000D): pasted from a terminal or a document, they show as nothing or as a box, on the flash screen too. A body
 * holding NUL is refused before any schema, as text the database cannot keep; a messages import, whose schema says
 * that of each text, says it once, not twice.
 */
const CONTROL_CHARACTER = /(?![\t\n\r\0])\p{Cc}/u;
export const CONTROL_CHARACTER_REFUSED =
  'This text holds control characters (U+0001–U+001F, U+007F–U+009F) that show as nothing or as a box. Type it again rather than pasting it.';

/**
 * Why a typed text is refused (a direction control or a control character inside it), or undefined when it is
 * not: the rule of `typedText()` (src/shared/contract/fields.ts), which the server applies, for the forms to say it
 * at the field before sending (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md). One at an end is
 * dropped. `stored`: what the field holds now, which is let through unchanged (or, for a list of fields such as a
 * program's days, what any of them holds: decision 138).
 */
export function typedTextRefusal(text: string, stored?: string | readonly string[]): string | undefined {
  const kept = trimInvisible(text);
  // A text sent back as it is stored was not typed now: one stored before the rule stays until the person edits it
  // (docs/decisions/129-a-removed-day-comes-back-a-resend-names-both-mails-an-old-text-stays.md).
  if (stored !== undefined && [stored].flat().some((one) => kept === trimInvisible(one))) return undefined;
  if (DIRECTION_CONTROL.test(kept)) return DIRECTION_CONTROL_REFUSED;
  if (CONTROL_CHARACTER.test(kept)) return CONTROL_CHARACTER_REFUSED;
  return undefined;
}

const ISOLATE_START = /[\u2066-\u2068]/u;
const ISOLATE_END = '\u2069';

/**
 * A text a person typed, quoted inside a sentence that is a string (a toast, a server's message, a tab's title):
 * between U+2068 and U+2069, so neither a right-to-left text nor a direction control stored before decision 063
 * reorders the words around it (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md). An isolate the
 * text opens is closed inside the box and one it closes without opening is left out, so the box ends where it says.
 */
export function isolated(text: string): string {
  let open = 0;
  let inside = '';
  for (const character of text) {
    if (ISOLATE_START.test(character)) open += 1;
    else if (character === ISOLATE_END) {
      if (open === 0) continue;
      open -= 1;
    }
    inside += character;
  }
  return `\u2068${inside}${ISOLATE_END.repeat(open)}${ISOLATE_END}`;
}

/** The longest e-mail address an account may have (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * What an e-mail address must look like: zod's own e-mail pattern, named here so the contract's
 * `emailField` and the account forms' light check (src/web/features/auth/validate.ts) share it.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * Whether an account may sign in, in staff's words (the admin screen and the CLI): active, never
 * activated by its owner, or deactivated by staff on a date `formatDate` writes.
 */
export function accountStatus(
  user: { is_active: boolean; deactivated_at: string | null },
  formatDate: (iso: string) => string,
): string {
  if (user.is_active) return 'active';
  return user.deactivated_at ? `deactivated on ${formatDate(user.deactivated_at)}` : 'not activated yet';
}
