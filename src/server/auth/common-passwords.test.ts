import { describe, it, expect } from 'vitest';
import { isCommonPassword, loadCommonPasswords } from './common-passwords';

describe('common passwords', () => {
  it('ships a list of at least 10,000 lowercase entries', () => {
    const list = loadCommonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    const malformed = [...list].filter((entry) => entry === '' || entry !== entry.trim().toLowerCase());
    expect(malformed).toEqual([]);
  });

  it('reads the file once and caches the set', () => {
    expect(loadCommonPasswords()).toBe(loadCommonPasswords());
  });

  it('knows the usual suspects, in any case and with stray spaces', () => {
    for (const password of [
      'password',
      '123456',
      'qwerty',
      'PASSWORD',
      'Password',
      'QwErTy',
      '  password  ',
      '123456\t',
    ]) {
      expect(isCommonPassword(password)).toBe(true);
    }
  });

  it('does not flag a long random passphrase', () => {
    expect(isCommonPassword('quiet-harbor-lantern-92-velvet-orbit')).toBe(false);
    expect(isCommonPassword('Tz8#pLq2!vWx9mRk')).toBe(false);
  });
});
