import { PRODUCT_NAME } from '@shared/constants';
import type { OutgoingMail } from './mailer';

// The account e-mails: plain text and HTML with the same words.

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function html(heading: string, paragraphs: string[], action?: { label: string; href: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.6">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.href)}" style="display:inline-block;background:#00DC82;color:#04130c;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:999px">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#5b6478">Or paste this link into your browser:<br><a href="${escapeHtml(action.href)}" style="color:#3b5bdb;word-break:break-all">${escapeHtml(action.href)}</a></p>`
    : '';
  return `<!doctype html><html><body style="margin:0;background:#f6f5f2;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1b1f2a">
<div style="max-width:520px;margin:0 auto;padding:32px 24px"><p style="font-size:20px;font-weight:700;margin:0 0 24px">${PRODUCT_NAME}</p>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(heading)}</h1>${body}${button}
<p style="margin:32px 0 0;font-size:13px;color:#5b6478">The ${PRODUCT_NAME} team</p></div></body></html>`;
}

const text = (paragraphs: string[]) => `${paragraphs.join('\n\n')}\n\nThe ${PRODUCT_NAME} team\n`;

export function activationMail(to: string, link: string, validDays: number): OutgoingMail {
  const intro = `Welcome to ${PRODUCT_NAME}! Please confirm your e-mail address to activate your account.`;
  const note = `The link works once and expires in ${validDays} ${validDays === 1 ? 'day' : 'days'}. If you did not sign up, you can ignore this e-mail.`;
  return {
    to,
    link,
    subject: `Activate your ${PRODUCT_NAME} account`,
    text: text([intro, `Activate your account: ${link}`, note]),
    html: html('Activate your account', [intro, note], { label: 'Activate my account', href: link }),
  };
}

export function passwordResetMail(to: string, link: string, validMinutes: number): OutgoingMail {
  const intro = `Someone asked to reset the password of your ${PRODUCT_NAME} account. If it was you, choose a new password here.`;
  const note = `The link works once and expires in ${validMinutes} minutes. If you did not ask for this, ignore this e-mail: your password stays as it is.`;
  return {
    to,
    link,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: text([intro, `Choose a new password: ${link}`, note]),
    html: html('Reset your password', [intro, note], { label: 'Choose a new password', href: link }),
  };
}

export function passwordChangedMail(to: string, resetLink: string): OutgoingMail {
  const intro = `The password of your ${PRODUCT_NAME} account was just changed, and every device was signed out.`;
  const note = `If this was not you, reset your password right away: ${resetLink}`;
  return {
    to,
    subject: `Your ${PRODUCT_NAME} password was changed`,
    text: text([intro, note]),
    html: html('Your password was changed', [intro, note]),
  };
}
