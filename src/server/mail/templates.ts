import { PRODUCT_NAME } from '@shared/constants';
import { isolated } from '@shared/contract/plain';
import { formatMoney } from '@shared/numbers';
import type { OutgoingMail } from './mailer';

// The account e-mails: plain text and HTML with the same words.

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Where the mail's one button goes: a page (with its link written out for mail apps that hide buttons), or a mailbox. */
interface Action {
  label: string;
  href: string;
}

// Mail apps that darken mails follow the scheme the mail declares; these classes give the dark one. Words too long for
// the line (an address, a pasted link) break anywhere rather than widen the mail past a phone's screen.
const DARK_SCHEME = `@media (prefers-color-scheme: dark) {
  .mail-page { background: #0d1326 !important; color: #e6e8f0 !important; }
  .mail-muted { color: #a4acc2 !important; }
  .mail-link { color: #9fb4ff !important; }
  .mail-quote { background: #18213a !important; }
}`;

/** `quote`: text a person wrote, kept as written (line breaks included). */
function html(heading: string, paragraphs: string[], action?: Action, quote?: string): string {
  const body =
    paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.6">${escapeHtml(p)}</p>`).join('') +
    (quote === undefined
      ? ''
      : `<blockquote class="mail-quote" style="margin:0 0 16px;padding:12px 16px;border-left:3px solid #00DC82;background:#fff;white-space:pre-wrap;line-height:1.6">${escapeHtml(quote)}</blockquote>`);
  const pasted = action && /^https?:/.test(action.href);
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.href)}" style="display:inline-block;background:#00DC82;color:#04130c;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:999px">${escapeHtml(action.label)}</a></p>` +
      (pasted
        ? `<p class="mail-muted" style="margin:0 0 16px;font-size:13px;color:#5b6478">Or paste this link into your browser:<br><a class="mail-link" href="${escapeHtml(action.href)}" style="color:#3b5bdb;word-break:break-all">${escapeHtml(action.href)}</a></p>`
        : '')
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${escapeHtml(heading)}</title>
<style>${DARK_SCHEME}</style></head>
<body class="mail-page" style="margin:0;background:#f6f5f2;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1b1f2a">
<div style="max-width:520px;margin:0 auto;padding:32px 24px;overflow-wrap:break-word;word-break:break-word"><p style="font-size:20px;font-weight:700;margin:0 0 24px">${PRODUCT_NAME}</p>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(heading)}</h1>${body}${button}
<p class="mail-muted" style="margin:32px 0 0;font-size:13px;color:#5b6478">The ${PRODUCT_NAME} team</p></div></body></html>`;
}

/** A plan as the pages name it: "Intermediate". */
const planName = (plan: string) => `${plan.charAt(0).toUpperCase()}${plan.slice(1)}`;

/** A link's lifetime in the unit a person would say: "1 hour", "90 minutes". */
const lifetime = (minutes: number) =>
  minutes % 60 === 0
    ? `${minutes / 60} ${minutes === 60 ? 'hour' : 'hours'}`
    : `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;

/** A moment for staff, whatever their time zone: "Saturday, December 5, 2026 at 10:00 AM UTC". */
const utcMoment = (date: Date) =>
  `${date.toLocaleString('en-US', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' })} UTC`;

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

/**
 * The answer to a resend for an address no account holds: the one that waited for its link was removed days after
 * its last link expired (or never was). Only the mailbox learns it; the resend's answer stays djoser's 204.
 */
export function noWaitingAccountMail(to: string, signupLink: string, keptDays: number): OutgoingMail {
  const intro = `We were asked for a new link to activate an ${PRODUCT_NAME} account with this e-mail address, but no account with this address waits for activation. An account that is not activated is removed ${keptDays} days after its last link was sent, and its address can be used to sign up again.`;
  const note = 'If you did not ask for this, you can ignore this e-mail.';
  return {
    to,
    link: signupLink,
    subject: `Sign up again for ${PRODUCT_NAME}`,
    text: text([intro, `Sign up again: ${signupLink}`, note]),
    html: html('Sign up again', [intro, note], { label: 'Sign up again', href: signupLink }),
  };
}

export function passwordResetMail(to: string, link: string, validMinutes: number): OutgoingMail {
  const intro = `Someone asked to reset the password of your ${PRODUCT_NAME} account. If it was you, choose a new password here.`;
  // A login ends the link too (decisions.md §10): said here, so a link that stops working after one is no surprise.
  const note = `The link works once, and expires in ${lifetime(validMinutes)} or as soon as you log in. If you did not ask for this, you can ignore this e-mail: your password stays as it is.`;
  return {
    to,
    link,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: text([intro, `Choose a new password: ${link}`, note]),
    html: html('Reset your password', [intro, note], { label: 'Choose a new password', href: link }),
  };
}

/**
 * Who a password change signed out: a reset, every device; a change from the profile, the devices other than the one
 * it was made on, or none when it was signed in only there.
 */
export type SignedOut = 'every device' | 'your other devices' | 'no other device';

const SIGNED_OUT: Record<SignedOut, string> = {
  'every device': ', and every device was signed out.',
  'your other devices': ', and your other devices were signed out.',
  'no other device': '. No other device was signed in.',
};

export function passwordChangedMail(
  to: string,
  resetLink: string,
  signedOut: SignedOut = 'every device',
): OutgoingMail {
  const intro = `The password of your ${PRODUCT_NAME} account was just changed${SIGNED_OUT[signedOut]}`;
  const note = 'If this was not you, reset your password right away';
  return {
    to,
    subject: `Your ${PRODUCT_NAME} password was changed`,
    text: text([intro, `${note}: ${resetLink}`]),
    html: html('Your password was changed', [intro, `${note}.`], { label: 'Reset my password', href: resetLink }),
  };
}

export function emailChangeMail(to: string, link: string, validDays: number): OutgoingMail {
  const intro = `Someone asked to use this address for their ${PRODUCT_NAME} account. If it was you, confirm it here; until then the account keeps its current address.`;
  const note = `The link works once and expires in ${validDays} ${validDays === 1 ? 'day' : 'days'}. If you did not ask for this, you can ignore this e-mail.`;
  return {
    to,
    link,
    subject: `Confirm your new ${PRODUCT_NAME} e-mail address`,
    text: text([intro, `Confirm this address: ${link}`, note]),
    html: html('Confirm your new e-mail address', [intro, note], { label: 'Confirm this address', href: link }),
  };
}

/**
 * To the old address. Whoever changed it can now reset the password, so the person may have no way into the
 * account: the mail points to support's mailbox, which needs none.
 */
export function emailChangedMail(to: string, newEmail: string, supportEmail: string): OutgoingMail {
  const intro = `The e-mail address of your ${PRODUCT_NAME} account was just changed to ${newEmail}. Mail about your account now goes there.`;
  const note = `If you did not make this change, someone knows your password: write to us right away at ${supportEmail}, from this address.`;
  const href = `mailto:${supportEmail}?subject=${encodeURIComponent(`My ${PRODUCT_NAME} e-mail address was changed without me`)}`;
  return {
    to,
    replyTo: supportEmail,
    subject: `Your ${PRODUCT_NAME} e-mail address was changed`,
    text: text([intro, note]),
    html: html('Your e-mail address was changed', [intro, note], { label: 'Write to support', href }),
  };
}

/** A support request as its mails tell it. */
export interface SupportMailRequest {
  id: number;
  email: string;
  plan: string;
  subject: string;
  message: string;
  priority: boolean;
  createdAt: Date;
}

/** To the support address: answering it answers the person (Reply-To); priority ones say so first. */
export function supportRequestMail(to: string, request: SupportMailRequest): OutgoingMail {
  const facts = [
    `From: ${request.email}`,
    `Plan: ${planName(request.plan)}${request.priority ? ' (priority support: answer first)' : ''}`,
    `Sent: ${utcMoment(request.createdAt)}`,
  ];
  const heading = `Support request #${request.id}`;
  const subject = isolated(request.subject);
  return {
    to,
    replyTo: request.email,
    subject: `${request.priority ? '[Priority] ' : ''}${heading}: ${subject}`,
    text: `${facts.join('\n')}\n\nSubject: ${subject}\n\n${request.message}\n`,
    html: html(heading, [...facts, `Subject: ${subject}`], undefined, request.message),
  };
}

/**
 * The sender's copy, when asked for: what was sent and when to expect an answer. A reply to it goes to support (it
 * comes from an address nobody reads), where the request went too.
 */
export function supportCopyMail(
  to: string,
  request: SupportMailRequest,
  support: { email: string; responseBusinessHours: number },
): OutgoingMail {
  const intro = `We received your support request #${request.id}. We answer within ${support.responseBusinessHours} business hours (Monday to Friday, excluding public holidays).`;
  const paragraphs = [
    intro,
    ...(request.priority ? ['Your plan includes priority support: your request is answered first.'] : []),
    'To add something to it, reply to this e-mail.',
  ];
  const subject = isolated(request.subject);
  const sent = `Your message, "${subject}":`;
  return {
    to,
    replyTo: support.email,
    subject: `Your ${PRODUCT_NAME} support request #${request.id}: ${subject}`,
    text: text([...paragraphs, sent, request.message]),
    html: html('We received your request', [...paragraphs, sent], undefined, request.message),
  };
}

/** A second subscription (two Checkouts paid at the same moment) was cancelled and its payment refunded. */
export function duplicateRefundedMail(
  to: string,
  refund: { amount: number; currency: string; plan: string },
  profileLink: string,
): OutgoingMail {
  const intro = `Two checkouts for your ${PRODUCT_NAME} account were paid at the same moment, which started two subscriptions. We kept one, and cancelled the other: its payment of ${formatMoney(refund.amount, refund.currency)} was refunded in full to the payment method it was charged to.`;
  const plan = `Your plan stays ${planName(refund.plan)}, and you pay for one subscription only. Refunds usually show on your statement within 5 to 10 business days.`;
  return {
    to,
    subject: `Your second ${PRODUCT_NAME} payment was refunded`,
    text: text([intro, plan, `Your plan and billing: ${profileLink}`]),
    html: html('Your second payment was refunded', [intro, plan], { label: 'See your plan', href: profileLink }),
  };
}
