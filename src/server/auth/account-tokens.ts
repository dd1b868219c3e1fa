import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_DATABASE_ID } from '@shared/contract';
import { deriveKey } from './tokens';

// Single-use links for activation and password reset, like Django's PasswordResetTokenGenerator:
// uid = the user id in base64url; token = "<timestamp base36>-<HMAC>", the HMAC taken over the
// purpose, the user's id, password hash, is_active, last_login, for a reset the address (as Django
// since 3.1: a link mailed to an address the account has left must not open it), the time staff last
// deactivated the account (when they ever did) and the timestamp. An activation link leaves the
// address out: an account never activated cannot change it. Using the link changes that state (the account
// becomes active, the password changes), so the token dies. A deactivation by staff kills every link
// for good: is_active and the rest may come back as they were, the deactivation time does not
// (docs/product/accounts.md#inactive-accounts).
// E-mail change links carry the new address in the token and sign it with the current address,
// password hash, deactivation time and the time the change was asked for (not the last login: logging in
// on the phone that opens the link must not kill it). The account keeps the change it waits for
// (docs/decisions/061-…): a link is valid only for that address and that request, so it dies once the
// address changed, staff deactivated the account, the person cancelled or asked again; it lives as long
// as an activation link. A resend of the same request makes a new link beside the earlier ones.

export type AccountTokenPurpose = 'activation' | 'reset';
type SignedPurpose = AccountTokenPurpose | 'email';

export interface AccountTokenState {
  id: number;
  email: string;
  passwordHash: string;
  isActive: boolean;
  lastLogin: Date | null;
  deactivatedAt: Date | null;
}

export interface AccountTokens {
  make(purpose: AccountTokenPurpose, user: AccountTokenState, now?: Date): string;
  /** 'valid', 'expired' or 'invalid' for this user's current state. */
  check(
    purpose: AccountTokenPurpose,
    user: AccountTokenState,
    token: string,
    now?: Date,
  ): 'valid' | 'expired' | 'invalid';
  /** The token of a link confirming `newEmail` as the user's address. */
  makeEmailChange(user: EmailChangeState, newEmail: string, now?: Date): string;
  /** The new address when the token is valid for this user's current state. */
  checkEmailChange(
    user: EmailChangeState,
    token: string,
    now?: Date,
  ): { verdict: 'valid'; newEmail: string } | { verdict: 'expired' | 'invalid' };
}

export interface EmailChangeState {
  id: number;
  email: string;
  passwordHash: string;
  deactivatedAt: Date | null;
  /** The change the account waits for: the address asked for and when (both or neither). */
  pendingEmail: string | null;
  pendingEmailAt: Date | null;
}

export { accountUid as encodeUid } from '@shared/contract/plain';

/** The user id of a uid, or undefined when it is not one this server made. */
export function decodeUid(uid: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(uid)) return undefined;
  const text = Buffer.from(uid, 'base64url').toString('utf8');
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_DATABASE_ID ? id : undefined;
}

export function createAccountTokens(secretKey: string, ttlSeconds: Record<AccountTokenPurpose, number>): AccountTokens {
  const keys: Record<SignedPurpose, ReturnType<typeof deriveKey>> = {
    activation: deriveKey(secretKey, 'account-token:activation'),
    reset: deriveKey(secretKey, 'account-token:reset'),
    email: deriveKey(secretKey, 'account-token:email'),
  };
  const lifetimes: Record<SignedPurpose, number> = { ...ttlSeconds, email: ttlSeconds.activation };

  const sign = (purpose: SignedPurpose, state: ReadonlyArray<string | number>, timestamp: number) =>
    createHmac('sha256', keys[purpose])
      .update([purpose, ...state, timestamp].join('|'))
      .digest('base64url')
      .slice(0, 32);
  // Only when set, so the links of accounts never deactivated stayed valid when it was added.
  const deactivation = (user: { deactivatedAt: Date | null }) =>
    user.deactivatedAt ? [user.deactivatedAt.getTime()] : [];
  const stateOf = (purpose: AccountTokenPurpose, user: AccountTokenState) => [
    user.id,
    user.passwordHash,
    user.isActive ? 1 : 0,
    user.lastLogin?.getTime() ?? '',
    ...(purpose === 'reset' ? [user.email.toLowerCase()] : []),
    ...deactivation(user),
  ];
  const emailStateOf = (user: EmailChangeState, newEmail: string) => [
    user.id,
    user.email.toLowerCase(),
    user.passwordHash,
    newEmail,
    ...deactivation(user),
    user.pendingEmailAt?.getTime() ?? '',
  ];
  /** Only the change the account waits for has a link. */
  const waitsFor = (user: EmailChangeState, newEmail: string) =>
    user.pendingEmail === newEmail && user.pendingEmailAt !== null;
  const stamp = (purpose: SignedPurpose, state: ReadonlyArray<string | number>, now: Date) => {
    const timestamp = Math.floor(now.getTime() / 1000);
    return `${timestamp.toString(36)}-${sign(purpose, state, timestamp)}`;
  };
  const verify = (purpose: SignedPurpose, state: ReadonlyArray<string | number>, token: string, now: Date) => {
    const match = /^([0-9a-z]{1,10})-([A-Za-z0-9_-]{32})$/.exec(token);
    if (!match) return 'invalid';
    const timestamp = Number.parseInt(match[1]!, 36);
    const expected = Buffer.from(sign(purpose, state, timestamp));
    const given = Buffer.from(match[2]!);
    if (!timingSafeEqual(expected, given)) return 'invalid';
    const age = Math.floor(now.getTime() / 1000) - timestamp;
    return age >= 0 && age <= lifetimes[purpose] ? 'valid' : 'expired';
  };

  return {
    make: (purpose, user, now = new Date()) => stamp(purpose, stateOf(purpose, user), now),
    check: (purpose, user, token, now = new Date()) => verify(purpose, stateOf(purpose, user), token, now),
    // "<new address in base64url>~<timestamp>-<HMAC>": `~` is outside base64url and, unlike a dot, never
    // makes the link's path look like a file name to the server's page fallback.
    makeEmailChange(user, newEmail, now = new Date()) {
      if (!waitsFor(user, newEmail)) throw new Error(`user ${user.id} waits for no change to this address`);
      return `${Buffer.from(newEmail, 'utf8').toString('base64url')}~${stamp('email', emailStateOf(user, newEmail), now)}`;
    },
    checkEmailChange(user, token, now = new Date()) {
      const match = /^([A-Za-z0-9_-]{1,400})~(.+)$/.exec(token);
      if (!match) return { verdict: 'invalid' };
      const newEmail = Buffer.from(match[1]!, 'base64url').toString('utf8');
      if (!waitsFor(user, newEmail)) return { verdict: 'invalid' };
      const verdict = verify('email', emailStateOf(user, newEmail), match[2]!, now);
      return verdict === 'valid' ? { verdict, newEmail } : { verdict };
    },
  };
}
