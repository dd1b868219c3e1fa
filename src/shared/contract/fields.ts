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
