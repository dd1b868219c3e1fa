import { describe, expect, it } from 'vitest';
import { PLAYER } from './constants';
import { formatInteger, formatMoney, snapToStep } from './numbers';

describe('formatInteger', () => {
  it('groups thousands as toLocaleString("en-US") does', () => {
    for (const value of [0, 7, 999, 1000, 5000, 12345, 999999, 1000000, 1234567890, -1000, -42])
      expect(formatInteger(value)).toBe(value.toLocaleString('en-US'));
  });
});

describe('snapToStep', () => {
  it('takes the nearest step, a half step up, within the limits', () => {
    expect(snapToStep(55, PLAYER.flashSpeed)).toBe(60);
    expect(snapToStep(54, PLAYER.flashSpeed)).toBe(50);
    expect(snapToStep(1249, PLAYER.displayInterval)).toBe(1000);
    expect(snapToStep(21, PLAYER.fontSize)).toBe(22);
    expect(snapToStep(3, PLAYER.fontSize)).toBe(10);
    expect(snapToStep(71, PLAYER.fontSize)).toBe(70);
  });

  it('gives the multiples of each player setting’s step, as the server takes them', () => {
    for (const limits of [PLAYER.flashSpeed, PLAYER.displayInterval, PLAYER.fontSize]) {
      expect(limits.min % limits.step).toBe(0);
      expect(limits.max % limits.step).toBe(0);
    }
  });
});

describe('formatMoney', () => {
  it('writes Stripe’s amounts (the currency’s smallest unit) as a reader does', () => {
    expect(formatMoney(3600, 'usd')).toBe('$36.00');
    expect(formatMoney(5650, 'eur')).toBe('€56.50');
    // Currencies without cents count in whole units at Stripe.
    expect(formatMoney(4000, 'jpy')).toBe('¥4,000');
  });
});
