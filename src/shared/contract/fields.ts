import { z } from 'zod';
import { MESSAGES } from './errors';

/** A required, non-blank string with DRF's messages. */
export const requiredString = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .min(1, { error: MESSAGES.blank });

export const emailField = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .trim()
    .min(1, { error: MESSAGES.blank })
    .max(254, { error: 'Ensure this field has no more than 254 characters.' })
    .pipe(z.email({ error: MESSAGES.invalidEmail }));

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
    .max(maxLength, { error: `Ensure this field has no more than ${maxLength} characters.` });

/** A password being chosen (signup, reset, change). */
export const newPasswordField = () => passwordField(NEW_PASSWORD_MAX_LENGTH);

/** The largest id a row can have (PostgreSQL's integer); a larger one names nothing. */
export const MAX_DATABASE_ID = 2_147_483_647;

/** A row id in a path: a positive integer within the database's range. */
export const databaseId = () => z.coerce.number().int().positive().max(MAX_DATABASE_ID);
