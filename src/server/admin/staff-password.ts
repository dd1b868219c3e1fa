import { hash } from '@node-rs/argon2';
import { isCommonPassword } from '../auth/common-passwords';

// Stand-ins for the accounts module's password rules and hashing (src/server/auth/passwords.ts,
// same OWASP argon2id parameters); swap these two functions for theirs once it lands.

const ARGON2ID = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2ID);

/** Django's default validators, briefly: long enough, not common, not only digits, not the e-mail. */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push('This password is too short. It must contain at least 8 characters.');
  if (isCommonPassword(password)) problems.push('This password is too common.');
  if (/^\d+$/.test(password)) problems.push('This password is entirely numeric.');
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 3 && password.toLowerCase().includes(local)) problems.push('The password is too similar to the email.');
  return problems;
}
