import { describe, expect, it } from 'vitest';
import { formatInteger } from './numbers';

describe('formatInteger', () => {
  it('groups thousands as toLocaleString("en-US") does', () => {
    for (const value of [0, 7, 999, 1000, 5000, 12345, 999999, 1000000, 1234567890, -1000, -42])
      expect(formatInteger(value)).toBe(value.toLocaleString('en-US'));
  });
});
