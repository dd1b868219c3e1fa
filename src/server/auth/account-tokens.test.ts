import { describe, expect, it } from 'vitest';
import { createAccountTokens, decodeUid, encodeUid } from './account-tokens';

const tokens = createAccountTokens('test-secret-key-that-is-long-enough-0123456789', {
  activation: 3 * 86_400,
  reset: 3600,
});
const user = {
  id: 42,
  email: 'ada@example.com',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$abc$def',
  isActive: true,
  lastLogin: new Date('2026-01-01T10:00:00Z'),
  deactivatedAt: null,
};
const issuedAt = new Date('2026-03-01T12:00:00Z');
const later = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);

describe('activation and reset tokens', () => {
  it('round-trips user ids through uids and refuses anything else', () => {
    expect(decodeUid(encodeUid(42))).toBe(42);
    expect(encodeUid(1)).toBe('MQ');
    // The browser's encoding (btoa, shared with the web) is Node's base64url, whatever the id's length.
    for (const id of [7, 99, 4242, 65_535, 1_000_001, 2_147_483_647])
      expect(encodeUid(id)).toBe(Buffer.from(String(id)).toString('base64url'));
    for (const uid of [
      '',
      'not base64!',
      Buffer.from('0').toString('base64url'),
      Buffer.from('-1').toString('base64url'),
      Buffer.from('99999999999').toString('base64url'),
    ]) {
      expect(decodeUid(uid)).toBeUndefined();
    }
  });

  it('expires a reset token after its lifetime, not before', () => {
    const token = tokens.make('reset', user, issuedAt);
    expect(tokens.check('reset', user, token, later(3600))).toBe('valid');
    expect(tokens.check('reset', user, token, later(3601))).toBe('expired');
  });

  it('dies when the password, the activation state, the last login or (a reset link) the address changes', () => {
    const token = tokens.make('reset', user, issuedAt);
    expect(tokens.check('reset', { ...user, passwordHash: `${user.passwordHash}x` }, token, later(1))).toBe('invalid');
    expect(tokens.check('reset', { ...user, isActive: false }, token, later(1))).toBe('invalid');
    expect(tokens.check('reset', { ...user, lastLogin: new Date() }, token, later(1))).toBe('invalid');
    expect(tokens.check('reset', { ...user, id: 43 }, token, later(1))).toBe('invalid');
    expect(tokens.check('reset', { ...user, email: 'ada.new@example.com' }, token, later(1))).toBe('invalid');
    expect(tokens.check('reset', { ...user, email: 'ADA@example.com' }, token, later(1))).toBe('valid');
  });

  it('dies for good when staff deactivate the account, even once it is as it was again', () => {
    const deactivated = { deactivatedAt: new Date('2026-03-01T12:30:00Z') };
    for (const purpose of ['activation', 'reset'] as const) {
      const token = tokens.make(purpose, user, issuedAt);
      expect(tokens.check(purpose, { ...user, ...deactivated }, token, later(1))).toBe('invalid');
      const again = tokens.make(purpose, { ...user, ...deactivated }, issuedAt);
      const nextDeactivation = { deactivatedAt: new Date('2026-03-01T12:45:00Z') };
      expect(tokens.check(purpose, { ...user, ...nextDeactivation }, again, later(1))).toBe('invalid');
    }
  });

  it('keeps the purposes apart and refuses a changed timestamp', () => {
    const token = tokens.make('activation', user, issuedAt);
    expect(tokens.check('activation', user, token, later(1))).toBe('valid');
    expect(tokens.check('reset', user, token, later(1))).toBe('invalid');
    const [, signature] = token.split('-');
    const forged = `${(Math.floor(issuedAt.getTime() / 1000) + 86_400).toString(36)}-${signature}`;
    expect(tokens.check('activation', user, forged, later(86_401))).toBe('invalid');
  });
});

describe('e-mail change tokens', () => {
  const owner = {
    id: 42,
    email: 'Ada@example.com',
    passwordHash: user.passwordHash,
    deactivatedAt: null,
    pendingEmail: 'ada@new.example',
    pendingEmailAt: issuedAt,
  };

  it('carries the new address and lives as long as an activation link', () => {
    const token = tokens.makeEmailChange(owner, 'ada@new.example', issuedAt);
    expect(tokens.checkEmailChange(owner, token, later(3 * 86_400))).toEqual({
      verdict: 'valid',
      newEmail: 'ada@new.example',
    });
    expect(tokens.checkEmailChange(owner, token, later(3 * 86_400 + 1))).toEqual({ verdict: 'expired' });
  });

  it('dies once the address or the password changed or staff deactivated the account, and refuses another address in it', () => {
    const token = tokens.makeEmailChange(owner, 'ada@new.example', issuedAt);
    expect(tokens.checkEmailChange({ ...owner, email: 'ada@new.example' }, token, later(1)).verdict).toBe('invalid');
    expect(tokens.checkEmailChange({ ...owner, passwordHash: 'other' }, token, later(1)).verdict).toBe('invalid');
    expect(tokens.checkEmailChange({ ...owner, deactivatedAt: later(1) }, token, later(2)).verdict).toBe('invalid');
    expect(tokens.checkEmailChange({ ...owner, id: 43 }, token, later(1)).verdict).toBe('invalid');
    const [, stamped] = token.split('~');
    const swapped = `${Buffer.from('eve@evil.example').toString('base64url')}~${stamped}`;
    expect(tokens.checkEmailChange(owner, swapped, later(1)).verdict).toBe('invalid');
    expect(tokens.checkEmailChange(owner, 'garbage', later(1)).verdict).toBe('invalid');
  });

  it('is valid only for the change the account waits for: a cancel or a newer request refuses it', () => {
    const token = tokens.makeEmailChange(owner, 'ada@new.example', issuedAt);
    const cancelled = { ...owner, pendingEmail: null, pendingEmailAt: null };
    expect(tokens.checkEmailChange(cancelled, token, later(1)).verdict).toBe('invalid');
    // Asked again, for the same address or another: only the newer request's links open it.
    const again = { ...owner, pendingEmailAt: later(60) };
    expect(tokens.checkEmailChange(again, token, later(61)).verdict).toBe('invalid');
    expect(tokens.checkEmailChange({ ...owner, pendingEmail: 'ada@other.example' }, token, later(1)).verdict).toBe(
      'invalid',
    );
    // A resend of the same request makes a new link; the earlier one still opens it.
    const resent = tokens.makeEmailChange(owner, 'ada@new.example', later(120));
    expect(tokens.checkEmailChange(owner, resent, later(121)).verdict).toBe('valid');
    expect(tokens.checkEmailChange(owner, token, later(121)).verdict).toBe('valid');
    expect(() => tokens.makeEmailChange(cancelled, 'ada@new.example', later(1))).toThrow();
  });

  it('is not an activation or reset token', () => {
    const token = tokens.makeEmailChange(owner, 'ada@new.example', issuedAt);
    expect(tokens.check('reset', user, token.split('~')[1]!, later(1))).toBe('invalid');
  });
});
