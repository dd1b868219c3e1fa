import { z } from 'zod';
import { emailField, newPasswordField, passwordField, requiredString, sharePageField } from './fields';
import { TERMS_NOT_ACCEPTED } from './plain';

export { ACCOUNT_INACTIVE_CODE, SESSIONS_ENDED_HEADER, TERMS_CONFIRMATION, TERMS_NOT_ACCEPTED } from './plain';

// Accounts and sessions: djoser + SimpleJWT compatible bodies (docs/product/accounts.md).

export const signupRequestSchema = z.object({
  email: emailField(),
  password: newPasswordField(),
  re_password: newPasswordField(),
  // Our form sends it (true) and the server refuses anything else; left out, as djoser's clients send
  // the spec's body, the client is taken to have asked for it itself (docs/product/accounts.md#sign-up).
  accept_terms: z.literal(true, { error: TERMS_NOT_ACCEPTED }).optional(),
  // Not djoser's: the share page the person signed up from, which the activation link leads back to.
  redirect: sharePageField().optional(),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const signupResponseSchema = z.object({ id: z.number().int(), email: z.string() });
export type SignupResponse = z.infer<typeof signupResponseSchema>;

export const tokenCreateRequestSchema = z.object({ email: emailField(), password: passwordField() });
export type TokenCreateRequest = z.infer<typeof tokenCreateRequestSchema>;

export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

export const tokenRefreshRequestSchema = z.object({ refresh: requiredString() });
export type TokenRefreshRequest = z.infer<typeof tokenRefreshRequestSchema>;

export const tokenRefreshResponseSchema = z.object({ access: z.string() });
export type TokenRefreshResponse = z.infer<typeof tokenRefreshResponseSchema>;

export const currentUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_staff: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const activationRequestSchema = z.object({ uid: requiredString(), token: requiredString() });
export type ActivationRequest = z.infer<typeof activationRequestSchema>;

export const resetPasswordRequestSchema = z.object({ email: emailField() });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const resetPasswordConfirmRequestSchema = z.object({
  uid: requiredString(),
  token: requiredString(),
  new_password: newPasswordField(),
  re_new_password: newPasswordField(),
});
export type ResetPasswordConfirmRequest = z.infer<typeof resetPasswordConfirmRequestSchema>;

/** Not djoser's: whether a reset link still works, asked when its page opens (docs/decisions/145-…). */
export const resetPasswordCheckRequestSchema = z.object({ uid: requiredString(), token: requiredString() });
export type ResetPasswordCheckRequest = z.infer<typeof resetPasswordCheckRequestSchema>;

// Self-service (docs/product/accounts.md#self-service): djoser's remaining user calls.

export const resendActivationRequestSchema = z.object({ email: emailField(), redirect: sharePageField().optional() });
export type ResendActivationRequest = z.infer<typeof resendActivationRequestSchema>;

export const setPasswordRequestSchema = z.object({
  current_password: passwordField(),
  new_password: newPasswordField(),
  re_new_password: newPasswordField(),
});
export type SetPasswordRequest = z.infer<typeof setPasswordRequestSchema>;

export const setEmailRequestSchema = z.object({ current_password: passwordField(), new_email: emailField() });
export type SetEmailRequest = z.infer<typeof setEmailRequestSchema>;

/** The change of address the account waits for: the address asked for and when (ISO 8601). */
export const pendingEmailChangeSchema = z.object({ new_email: z.string(), requested_at: z.string() });
export type PendingEmailChange = z.infer<typeof pendingEmailChangeSchema>;

/** GET set_email: the change waiting for its link to be opened, or null (docs/product/accounts.md#changing-the-e-mail). */
export const emailChangeStatusSchema = z.object({ pending: pendingEmailChangeSchema.nullable() });
export type EmailChangeStatus = z.infer<typeof emailChangeStatusSchema>;

/** The e-mailed link's uid and token: the token carries the new address and dies once the address changed. */
export const setEmailConfirmRequestSchema = z.object({ uid: requiredString(), token: requiredString() });
export type SetEmailConfirmRequest = z.infer<typeof setEmailConfirmRequestSchema>;

export const deleteAccountRequestSchema = z.object({ current_password: passwordField() });
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

// Signing out everywhere else (docs/product/accounts.md#signing-out-everywhere-else).

/** The person's other live sessions: how many, and when the latest of them signed in. */
export const otherSessionsSchema = z.object({
  count: z.number().int(),
  /** ISO 8601 sign-in of the newest other session; null when there is none. */
  latest_sign_in: z.string().nullable(),
});
export type OtherSessions = z.infer<typeof otherSessionsSchema>;

export const signOutOthersRequestSchema = z.object({ current_password: passwordField() });
export type SignOutOthersRequest = z.infer<typeof signOutOthersRequestSchema>;

export const signOutOthersResponseSchema = z.object({ ended: z.number().int() });
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponseSchema>;
