import { z } from 'zod';
import { resetPasswordConfirmRequestSchema } from '@shared/contract/auth';
import { AUTH_MESSAGES } from './messages';

// The reset-confirm form validates with the contract's schema; an empty field names itself. Login, sign-up and the
// reset request check lighter, without zod (validate.ts).

export const resetConfirmFormSchema = resetPasswordConfirmRequestSchema
  .pick({ new_password: true, re_new_password: true })
  .extend({
    new_password: z.string().min(1, { error: AUTH_MESSAGES.newPasswordMissing }),
    re_new_password: z.string().min(1, { error: AUTH_MESSAGES.confirmNewPasswordMissing }),
  })
  .refine((form) => form.new_password === form.re_new_password, {
    path: ['re_new_password'],
    error: AUTH_MESSAGES.resetMismatch,
  });
export type ResetConfirmForm = z.infer<typeof resetConfirmFormSchema>;
