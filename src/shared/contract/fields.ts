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

/** Passwords are never trimmed: spaces are part of them. */
export const passwordField = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Not a valid string.') })
    .min(1, { error: MESSAGES.blank })
    .max(4096, { error: 'Ensure this field has no more than 4096 characters.' });

/** The largest id a row can have (PostgreSQL's integer); a larger one names nothing. */
export const MAX_DATABASE_ID = 2_147_483_647;

/** A row id in a path: a positive integer within the database's range. */
export const databaseId = () => z.coerce.number().int().positive().max(MAX_DATABASE_ID);
