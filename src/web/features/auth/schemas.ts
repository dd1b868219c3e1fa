import { z } from 'zod';
import {
  resetPasswordConfirmRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  tokenCreateRequestSchema,
} from '@shared/contract';
import { AUTH_MESSAGES } from './messages';

// The forms validate with the contract's schemas, with the spec's own words for a missing value.

const email = z
  .string()
  .trim()
  .min(1, { error: AUTH_MESSAGES.emailMissing })
  .pipe(z.email({ error: 'Enter a valid email address.' }));
const password = z.string().min(1, { error: AUTH_MESSAGES.passwordMissing });

export const signupFormSchema = signupRequestSchema
  .extend({
    email,
    password,
    re_password: password,
    accept_terms: z.boolean().refine(Boolean, { error: AUTH_MESSAGES.termsMissing }),
  })
  .refine((form) => form.password === form.re_password, {
    path: ['re_password'],
    error: AUTH_MESSAGES.passwordMismatch,
  });
export type SignupForm = z.infer<typeof signupFormSchema>;

export const loginFormSchema = tokenCreateRequestSchema.extend({ email, password });
export type LoginForm = z.infer<typeof loginFormSchema>;

export const resetRequestFormSchema = resetPasswordRequestSchema.extend({ email });
export type ResetRequestForm = z.infer<typeof resetRequestFormSchema>;

export const resetConfirmFormSchema = resetPasswordConfirmRequestSchema
  .pick({ new_password: true, re_new_password: true })
  .extend({ new_password: password, re_new_password: password })
  .refine((form) => form.new_password === form.re_new_password, {
    path: ['re_new_password'],
    error: AUTH_MESSAGES.resetMismatch,
  });
export type ResetConfirmForm = z.infer<typeof resetConfirmFormSchema>;
