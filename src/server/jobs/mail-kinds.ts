import type { SignedOut } from '../mail/templates';
import type { NewJob } from './queue';

// The account e-mails as jobs (docs/decisions/018-a-job-table-in-postgresql.md). A job holds who and
// what, never the mail itself: its link is made when it is sent, so no usable token is ever stored.

export type MailJob =
  | {
      kind: 'mail.activation';
      /** `redirect`: the share page the link leads back to after activation and login. */
      payload: ({ userId: number } | { email: string }) & { redirect?: string };
    }
  | { kind: 'mail.password-reset'; payload: { email: string } }
  | { kind: 'mail.password-changed'; payload: { userId: number; signedOut: SignedOut } }
  | { kind: 'mail.email-change'; payload: { userId: number; newEmail: string } }
  | { kind: 'mail.email-changed'; payload: { userId: number; oldEmail: string; newEmail: string } }
  | { kind: 'mail.support-request'; payload: { requestId: number } }
  | { kind: 'mail.support-copy'; payload: { requestId: number } }
  | { kind: 'mail.duplicate-refunded'; payload: { subscriptionId: string } };

/** A mail is tried 8 times over about 40 minutes of back-off before it is left for staff. */
export const MAIL_ATTEMPTS = 8;

export const mailJob = (job: MailJob): NewJob => ({ ...job, maxAttempts: MAIL_ATTEMPTS });
