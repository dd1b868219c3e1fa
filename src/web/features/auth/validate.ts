import { EMAIL_PATTERN } from '@shared/contract/plain';
import { AUTH_MESSAGES } from './messages';

// The account forms' check before sending (login, sign-up, reset request): what a person most often
// gets wrong, in the forms' own words, with the contract's e-mail pattern. Everything else (lengths,
// the password rules, an address already taken) is the server's answer, shown under its field. No zod
// here, so these pre-rendered pages load without it (docs/decisions/020-lean-pre-rendered-auth-pages.md).

export type FieldErrors<Name extends string> = Partial<Record<Name, string>>;

/** The address as sent: trimmed, like the contract's `emailField`. */
export const emailValue = (data: FormData) => String(data.get('email') ?? '').trim();

export function emailError(email: string): string | undefined {
  if (!email) return AUTH_MESSAGES.emailMissing;
  return EMAIL_PATTERN.test(email) ? undefined : AUTH_MESSAGES.emailInvalid;
}

export const passwordError = (password: string) => (password ? undefined : AUTH_MESSAGES.passwordMissing);

export interface LoginValues {
  email: string;
  password: string;
}

export function checkLogin(data: FormData): { values: LoginValues; errors: FieldErrors<keyof LoginValues> } {
  const values = { email: emailValue(data), password: String(data.get('password') ?? '') };
  return { values, errors: { email: emailError(values.email), password: passwordError(values.password) } };
}

export interface SignupValues {
  email: string;
  password: string;
  re_password: string;
  accept_terms: boolean;
}

export function checkSignup(data: FormData): { values: SignupValues; errors: FieldErrors<keyof SignupValues> } {
  const values = {
    email: emailValue(data),
    password: String(data.get('password') ?? ''),
    re_password: String(data.get('re_password') ?? ''),
    accept_terms: data.get('accept_terms') !== null,
  };
  return {
    values,
    errors: {
      email: emailError(values.email),
      password: passwordError(values.password),
      re_password: !values.re_password
        ? AUTH_MESSAGES.confirmPasswordMissing
        : values.password === values.re_password
          ? undefined
          : AUTH_MESSAGES.passwordMismatch,
      accept_terms: values.accept_terms ? undefined : AUTH_MESSAGES.termsMissing,
    },
  };
}

export function checkResetRequest(data: FormData): { values: { email: string }; errors: FieldErrors<'email'> } {
  const values = { email: emailValue(data) };
  return { values, errors: { email: emailError(values.email) } };
}
