import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL_PATTERN } from '@shared/contract/plain';
import { signupRequestSchema } from '@shared/contract/auth';
import { AUTH_MESSAGES } from './messages';
import { checkLogin, checkResetRequest, checkSignup } from './validate';

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
};

describe('the account forms’ light check', () => {
  it('names what is missing in the forms’ words', () => {
    expect(checkLogin(form({ email: ' ', password: '' })).errors).toEqual({
      email: AUTH_MESSAGES.emailMissing,
      password: AUTH_MESSAGES.passwordMissing,
    });
    expect(checkResetRequest(form({ email: '' })).errors).toEqual({ email: AUTH_MESSAGES.emailMissing });
    // An empty confirm field is named as itself, whether or not the password above it is there.
    expect(checkSignup(form({ email: '', password: '', re_password: '' })).errors).toMatchObject({
      password: 'Your password is missing',
      re_password: 'Confirm your password: type it again',
    });
    expect(checkSignup(form({ email: '', password: 'a-b-c-d-1', re_password: '' })).errors).toMatchObject({
      password: undefined,
      re_password: 'Confirm your password: type it again',
    });
  });

  it('checks the passwords match and the terms are accepted, and sends the address trimmed', () => {
    const { values, errors } = checkSignup(
      form({ email: ' ada@example.com ', password: 'a-b-c-d-1', re_password: 'x' }),
    );
    expect(values.email).toBe('ada@example.com');
    expect(errors).toEqual({
      email: undefined,
      password: undefined,
      re_password: AUTH_MESSAGES.passwordMismatch,
      accept_terms: AUTH_MESSAGES.termsMissing,
    });
    const accepted = checkSignup(
      form({ email: 'ada@example.com', password: 'p', re_password: 'p', accept_terms: 'on' }),
    );
    expect(Object.values(accepted.errors).filter(Boolean)).toEqual([]);
  });

  it('uses the contract’s e-mail pattern: what it refuses, the server’s schema refuses too', () => {
    for (const email of ['ada@example.com', 'a.b+c@mail.example.org', 'ada@example', 'ada@@example.com', '.a@x.io']) {
      const light = checkLogin(form({ email, password: 'p' })).errors.email === undefined;
      const contract = signupRequestSchema.shape.email.safeParse(email).success;
      expect(light, email).toBe(contract);
      expect(EMAIL_PATTERN.test(email), email).toBe(z.email().safeParse(email).success);
    }
  });
});
