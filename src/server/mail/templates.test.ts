import { describe, expect, it } from 'vitest';
import { duplicateRefundedMail } from './templates';

describe('the refund mail of a second subscription', () => {
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
