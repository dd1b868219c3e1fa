import { describe, expect, it } from 'vitest';
import {
  activationMail,
  duplicateRefundedMail,
  emailChangedMail,
  passwordChangedMail,
  passwordResetMail,
  supportCopyMail,
  supportRequestMail,
} from './templates';

describe('every mail as a phone shows it', () => {
  const html = activationMail('ada@example.com', 'https://innerwave.test/activation/MQ/t', 3).html;

  it('is laid out for the screen it is read on, not a desktop page shrunk', () => {
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('has a dark scheme for mail apps that darken mails', () => {
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toMatch(/@media \(prefers-color-scheme: dark\) \{\s*\.mail-page \{ background: #0d1326/);
    expect(html).toContain('<body class="mail-page"');
  });

  it('breaks a word longer than the line (an address, a pasted link) instead of widening the mail', () => {
    expect(html).toMatch(/<div style="[^"]*overflow-wrap:break-word;word-break:break-word"/);
  });
});

describe('the password mails', () => {
  it('give a reset link a readable lifetime, and say that a login ends it (decisions.md §10)', () => {
    const mail = passwordResetMail('ada@example.com', 'https://innerwave.test/password-reset/MQ/t', 60);
    expect(mail.text).toContain('The link works once, and expires in 1 hour or as soon as you log in.');
    expect(passwordResetMail('ada@example.com', 'https://x.test/r', 90).text).toContain('expires in 90 minutes');
    expect(passwordResetMail('ada@example.com', 'https://x.test/r', 120).text).toContain('expires in 2 hours');
  });

  it('say who a password change signed out, and claim no sign-out when there was none', () => {
    const link = 'https://innerwave.test/resetpassword/';
    expect(passwordChangedMail('ada@example.com', link).text).toContain('and every device was signed out.');
    expect(passwordChangedMail('ada@example.com', link, 'your other devices').text).toContain(
      'and your other devices were signed out.',
    );
    const alone = passwordChangedMail('ada@example.com', link, 'no other device');
    expect(alone.text).toContain('was just changed. No other device was signed in.');
    expect(alone.html).toContain('No other device was signed in.');
    expect(alone.text).not.toContain('signed out');
  });

  it('make the way back after a change someone else made a button, not a bare address', () => {
    const mail = passwordChangedMail('ada@example.com', 'https://innerwave.test/resetpassword/');
    expect(mail.html).toContain('<a href="https://innerwave.test/resetpassword/"');
    expect(mail.html).toContain('>Reset my password</a>');
    expect(mail.text).toContain(
      'If this was not you, reset your password right away: https://innerwave.test/resetpassword/',
    );
  });
});

describe('the notice that the address changed', () => {
  it('points the old address to support by mail, whom it may answer too', () => {
    const mail = emailChangedMail('ada@example.com', 'ada.new@example.com', 'help@innerwave.test');
    expect(mail.text).toContain('write to us right away at help@innerwave.test, from this address.');
    expect(mail.replyTo).toBe('help@innerwave.test');
    expect(mail.html).toContain(
      '<a href="mailto:help@innerwave.test?subject=My%20Innerwave%20e-mail%20address%20was%20changed%20without%20me"',
    );
    // A mailbox is no link to paste into a browser.
    expect(mail.html).not.toContain('Or paste this link');
  });
});

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
  const support = { email: 'help@innerwave.test', responseBusinessHours: 48 };

  it('quote the subject isolated in their subjects and sentences', () => {
    const toSupport = supportRequestMail('support@innerwave.test', request);
    expect(toSupport.subject).toBe('[Priority] Support request #12: \u2068שלום \u202Eevil\u2069');
    expect(toSupport.text).toContain('Subject: \u2068שלום \u202Eevil\u2069\n');
    expect(toSupport.html).toContain('Subject: \u2068שלום \u202Eevil\u2069</p>');
    const copy = supportCopyMail('ada@example.com', request, support);
    expect(copy.subject).toBe('Your Innerwave support request #12: \u2068שלום \u202Eevil\u2069');
    expect(copy.text).toContain('Your message, "\u2068שלום \u202Eevil\u2069":');
  });

  it('let the person add to a request by answering its copy, which reaches support, not the no-reply sender', () => {
    const copy = supportCopyMail('ada@example.com', request, support);
    expect(copy.replyTo).toBe('help@innerwave.test');
    expect(copy.text).toContain('answered first.\n\nTo add something to it, reply to this e-mail.\n\nYour message');
  });

  it('tell staff the plan by its name and the moment in words, in UTC', () => {
    const toSupport = supportRequestMail('support@innerwave.test', request);
    expect(toSupport.text).toContain(
      'Plan: Pro (priority support: answer first)\nSent: Saturday, December 5, 2026 at 10:00 AM UTC\n',
    );
  });

  it('show markup a person typed as text', () => {
    const typed = { ...request, subject: '<b>Hi</b>', message: '<script>alert(1)</script>' };
    for (const mail of [
      supportRequestMail('support@innerwave.test', typed),
      supportCopyMail('ada@example.com', typed, support),
    ]) {
      expect(mail.html).toContain('&lt;b&gt;Hi&lt;/b&gt;');
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</blockquote>');
      expect(mail.html).not.toContain('<script>');
    }
  });
});
