import { describe, expect, it } from 'vitest';
import { duplicateRefundedMail, formatMoney } from './templates';

describe('the refund mail of a second subscription', () => {
  it('writes Stripe’s amounts (the currency’s smallest unit) as a reader does', () => {
    expect(formatMoney(3600, 'usd')).toBe('$36.00');
    expect(formatMoney(5650, 'eur')).toBe('€56.50');
    // Currencies without cents count in whole units at Stripe.
    expect(formatMoney(4000, 'jpy')).toBe('¥4,000');
  });

  it('says what was refunded, which plan stays, and links to the plan', () => {
    const mail = duplicateRefundedMail(
      'ada@example.com',
      { amount: 5600, currency: 'usd', plan: 'intermediate' },
      'https://innerwave.test/profile',
    );
    expect(mail.subject).toBe('Your second Innerwave payment was refunded');
    expect(mail.text).toContain('its payment of $56.00 was refunded in full');
    expect(mail.text).toContain('Your plan stays Intermediate');
    expect(mail.text).toContain('https://innerwave.test/profile');
    expect(mail.html).toContain('href="https://innerwave.test/profile"');
  });
});
