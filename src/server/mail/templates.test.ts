import { describe, expect, it } from 'vitest';
import { duplicateRefundedMail, supportCopyMail, supportRequestMail } from './templates';

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

describe('the support mails', () => {
  // A right-to-left subject, or an override stored before decision 063, stays in its box (decision 064).
  const request = {
    id: 12,
    email: 'ada@example.com',
    plan: 'pro',
    subject: 'שלום \u202Eevil',
    message: 'Hello',
    priority: true,
    createdAt: new Date('2026-12-05T10:00:00Z'),
  };

  it('quote the subject isolated in their subjects and sentences', () => {
    const toSupport = supportRequestMail('support@innerwave.test', request);
    expect(toSupport.subject).toBe('[Priority] Support request #12: \u2068שלום \u202Eevil\u2069');
    expect(toSupport.text).toContain('Subject: \u2068שלום \u202Eevil\u2069\n');
    expect(toSupport.html).toContain('Subject: \u2068שלום \u202Eevil\u2069</p>');
    const copy = supportCopyMail('ada@example.com', request, 48);
    expect(copy.subject).toBe('Your Innerwave support request #12: \u2068שלום \u202Eevil\u2069');
    expect(copy.text).toContain('Your message, "\u2068שלום \u202Eevil\u2069":');
  });
});
