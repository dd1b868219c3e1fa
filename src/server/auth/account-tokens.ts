import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from './tokens';

// Single-use links for activation and password reset, like Django's PasswordResetTokenGenerator:
// uid = the user id in base64url; token = "<timestamp base36>-<HMAC>", the HMAC taken over the
// purpose, the user's id, password hash, is_active, last_login and the timestamp. Using the link
// changes that state (the account becomes active, the password changes), so the token dies.

export type AccountTokenPurpose = 'activation' | 'reset';

export interface AccountTokenState {
  id: number;
  passwordHash: string;
  isActive: boolean;
  lastLogin: Date | null;
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
}

export const encodeUid = (id: number) => Buffer.from(String(id), 'utf8').toString('base64url');

/** The user id of a uid, or undefined when it is not one this server made. */
export function decodeUid(uid: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(uid)) return undefined;
  const text = Buffer.from(uid, 'base64url').toString('utf8');
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : undefined;
}

export function createAccountTokens(secretKey: string, ttlSeconds: Record<AccountTokenPurpose, number>): AccountTokens {
  const keys = {
    activation: deriveKey(secretKey, 'account-token:activation'),
    reset: deriveKey(secretKey, 'account-token:reset'),
  };

  const signature = (purpose: AccountTokenPurpose, user: AccountTokenState, timestamp: number) =>
    createHmac('sha256', keys[purpose])
      .update(
        [purpose, user.id, user.passwordHash, user.isActive ? 1 : 0, user.lastLogin?.getTime() ?? '', timestamp].join(
          '|',
        ),
      )
      .digest('base64url')
      .slice(0, 32);

  return {
    make(purpose, user, now = new Date()) {
      const timestamp = Math.floor(now.getTime() / 1000);
      return `${timestamp.toString(36)}-${signature(purpose, user, timestamp)}`;
    },
    check(purpose, user, token, now = new Date()) {
      const match = /^([0-9a-z]{1,10})-([A-Za-z0-9_-]{32})$/.exec(token);
      if (!match) return 'invalid';
      const timestamp = Number.parseInt(match[1]!, 36);
      const expected = Buffer.from(signature(purpose, user, timestamp));
      const given = Buffer.from(match[2]!);
      if (!timingSafeEqual(expected, given)) return 'invalid';
      const age = Math.floor(now.getTime() / 1000) - timestamp;
      return age >= 0 && age <= ttlSeconds[purpose] ? 'valid' : 'expired';
    },
  };
}
