import { z } from 'zod';
import { maxElements } from './drf-messages';
import { MESSAGES, unstorableTextMessages } from './errors';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  hasVisibleText,
  maxCharacters,
  trimInvisible,
  typedTextRefusal,
} from './plain';
import { isSharePagePath } from './paths';

export {
  characterCount,
  CONTROL_CHARACTER_REFUSED,
  DIRECTION_CONTROL_REFUSED,
  leadingCharacters,
  trimInvisible,
} from './plain';

/** A required string with DRF's messages that shows something (not blank, not only invisible characters). */
export const requiredString = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .refine(hasVisibleText, { error: MESSAGES.blank });

/** A typed text's refusal of a control or direction character inside, in 063's words; `stored` is let through. */
const refusedAsTyped = (stored?: string | readonly string[]) =>
  [
    (text: string) => typedTextRefusal(text, stored) === undefined,
    { error: (issue: { input: unknown }) => typedTextRefusal(issue.input as string, stored) },
  ] as const;

/**
 * A text a person types that is shown back, to them or to others (a name, a message, a support request):
 * what is drawn as nothing at its ends is dropped, so an invisible character cannot make a name that looks
 * like another one, and a direction control inside is refused, so it cannot reorder what others read, as is a
 * control character that shows as a box (docs/decisions/063-typed-text-shows-what-it-holds.md). Joiners inside
 * (👨‍👩‍👧) stay. `stored`: the field's text as stored, sent back untouched beside another change (decision 129).
 */
export const typedText = (stored?: string | readonly string[]) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .overwrite(trimInvisible)
    .refine(hasVisibleText, { error: MESSAGES.blank })
    .refine(...refusedAsTyped(stored));

/**
 * A typed text that may be empty (a description, a program's free text): `typedText()`'s rule, only allowed to be ''
 * (docs/decisions/063-typed-text-shows-what-it-holds.md). `stored`, as `typedText`'s (decision 133).
 */
export const optionalTypedText = (stored?: string | readonly string[]) =>
  z
    .string({ error: 'Not a valid string.' })
    .overwrite(trimInvisible)
    .refine(...refusedAsTyped(stored));

/**
 * Refuses text the database cannot keep (a NUL, a lone surrogate) in DRF's words, for a schema whose
 * refusals say where in a file the text is. Every other body is checked whole before its schema
 * (src/server/http/body-parsers.ts), which names only the top field.
 */
export const refuseUnstorableText = (text: string, ctx: z.RefinementCtx<string>) => {
  for (const message of unstorableTextMessages(text)) ctx.addIssue({ code: 'custom', message, input: text });
};

export const emailField = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .min(1, { error: MESSAGES.blank })
    .max(EMAIL_MAX_LENGTH, maxCharacters(EMAIL_MAX_LENGTH))
    .pipe(z.email({ pattern: EMAIL_PATTERN, error: MESSAGES.invalidEmail }));

/** The longest password a person may choose (at least 64 allowed, more than 128 refused). */
export const NEW_PASSWORD_MAX_LENGTH = 128;

/**
 * A password as typed at login; never trimmed (spaces are part of it). Login takes the longer bound
 * so an account whose password predates the 128-character limit can still sign in.
 */
export const passwordField = (maxLength = 4096) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .min(1, { error: MESSAGES.blank })
    .max(maxLength, maxCharacters(maxLength));

/** A password being chosen (signup, reset, change): spaces count, but spaces alone are no password. */
export const newPasswordField = () =>
  passwordField(NEW_PASSWORD_MAX_LENGTH).refine((value) => value.trim() !== '', { error: MESSAGES.blank });

/** The largest id a row can have (PostgreSQL's integer); a larger one names nothing. */
export const MAX_DATABASE_ID = 2_147_483_647;

const NOT_AN_INTEGER = 'A valid integer is required.';

/**
 * A row id in a JSON body, as DRF's IntegerField reads one: a JSON integer or a string of decimal digits
 * ("3"), positive and within the database's range. Nothing else is coerced ("1e0", " 1", "0x1", true).
 * A codec, so a response holding the id (a number) is written back as it is.
 */
export const databaseId = () =>
  z.codec(
    z.union([z.number(), z.string().regex(/^[0-9]+$/, { error: NOT_AN_INTEGER })], {
      error: (issue) =>
        issue.input === undefined
          ? MESSAGES.required
          : issue.input === null
            ? 'This field may not be null.'
            : NOT_AN_INTEGER,
    }),
    z
      .number()
      .max(MAX_DATABASE_ID, { error: `Ensure this value is less than or equal to ${MAX_DATABASE_ID}.`, abort: true })
      .int({ error: NOT_AN_INTEGER })
      .min(1, { error: 'Ensure this value is greater than or equal to 1.' }),
    { decode: (value) => (typeof value === 'string' ? Number(value) : value), encode: (id) => id },
  );

/** Decimal digits without a sign or a leading zero: a positive integer as a URL pattern (`\d+`) reads it. */
const PATH_INTEGER = /^[1-9][0-9]*$/;

/**
 * A positive integer in a path, at most `max`. Anything else (1.0, 1e0, +1, 0x1, 01, " 1") names
 * nothing, so the route answers 404 as an unmatched URL pattern does.
 */
export const pathInteger = (max: number) => z.string().regex(PATH_INTEGER).transform(Number).pipe(z.number().max(max));

/** A row id in a path: a positive integer within the database's range. */
export const pathId = () => pathInteger(MAX_DATABASE_ID);

/**
 * An integer in a query string: decimal digits, with a minus for a negative one (not 0x10, 1e2, 1.0, +1 or a repeated
 * parameter), so `-1` is told the schema's minimum, as DRF's IntegerField tells it. Digits too many for a number
 * read as the largest exact one, so the schema's limit is named (not "Infinity").
 */
export const queryInteger = () =>
  z
    .string({ error: NOT_AN_INTEGER })
    .regex(/^-?[0-9]+$/, { error: NOT_AN_INTEGER })
    .transform((digits) => Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number(digits), Number.MAX_SAFE_INTEGER)));

/**
 * A new order of a whole list (categories, or the messages of one): every id of it exactly once, so at most `most`
 * ids, the most rows the list can hold. The length is checked before any id is read: a megabyte of ids, each
 * refused in turn, held a worker's event loop for two seconds.
 */
export const orderSchema = (most: number) =>
  z.object({
    ids: z
      .array(z.unknown())
      .max(most, maxElements(most))
      .pipe(
        z
          .array(databaseId())
          .refine((ids) => new Set(ids).size === ids.length, { error: 'Each id may appear only once.' }),
      ),
  });
export type OrderRequest = z.infer<ReturnType<typeof orderSchema>>;

export const NOT_A_SHARE_PAGE = 'Enter the path of a share link, such as /s/AbC123.';

/**
 * The page a sign-up comes back to after its activation (`redirect`): a share page's path only, so an
 * activation link can never send anyone to another site or another kind of page
 * (docs/decisions/052-a-sign-up-from-a-share-link-comes-back-to-it.md).
 */
export const sharePageField = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .refine(isSharePagePath, { error: NOT_A_SHARE_PAGE });
