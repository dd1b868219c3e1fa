import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { SUPPORT } from '@shared/constants';
import { EMAILED_PAGES, fillPath, isSharePagePath, PAGES } from '@shared/contract';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { duplicateSubscriptions, supportRequests, users } from '../db/schema';
import { planOf } from '../own/service';
import { createAccountTokens, encodeUid } from '../auth/account-tokens';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import {
  activationMail,
  duplicateRefundedMail,
  emailChangedMail,
  emailChangeMail,
  noWaitingAccountMail,
  passwordChangedMail,
  passwordResetMail,
  supportCopyMail,
  supportRequestMail,
} from '../mail/templates';
import type { MailJob } from './mail-kinds';
import type { JobRow } from './queue';
import type { JobHandler, JobLog } from './runner';
import { userByEmail } from '../db/user-by-email';
import { awaitsActivation, WAITING_ACCOUNT_KEPT_AFTER_LINK_MS } from '../auth/waiting-accounts';

// Sends the account e-mails of the job table (kinds: mail-kinds.ts). Each job reads the account as it
// is when the mail goes out: an activation mail for an account activated or deactivated by staff
// meanwhile, or a reset for an address with no active account, is not sent (the job is done). A mail that cannot be delivered
// throws, and the job is retried with back-off.

export interface MailJobDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: JobLog;
}

const userId = z.number().int().positive();
/** Checked again when the link is made: a payload never writes anything but a share page into a link. */
const sharePage = z.string().refine(isSharePagePath).optional();
const payloads = {
  'mail.activation': z.union([
    z.object({ userId, redirect: sharePage }),
    z.object({ email: z.string(), redirect: sharePage }),
  ]),
  'mail.password-reset': z.object({ email: z.string() }),
  'mail.password-changed': z.object({
    userId,
    signedOut: z.enum(['every device', 'your other devices', 'no other device']),
  }),
  'mail.email-change': z.object({ userId, newEmail: z.string() }),
  'mail.email-changed': z.object({ userId, oldEmail: z.string(), newEmail: z.string() }),
  'mail.support-request': z.object({ requestId: userId }),
  'mail.support-copy': z.object({ requestId: userId }),
  'mail.duplicate-refunded': z.object({ subscriptionId: z.string() }),
} satisfies Record<MailJob['kind'], z.ZodType>;

export const MAIL_JOB_KINDS = Object.keys(payloads) as MailJob['kind'][];

type Payload<K extends MailJob['kind']> = z.output<(typeof payloads)[K]>;

const days = (seconds: number) => Math.max(1, Math.round(seconds / 86_400));

export function mailJobHandlers({ config, db, mailer, log }: MailJobDeps): Record<MailJob['kind'], JobHandler> {
  const tokens = createAccountTokens(config.secretKey, {
    activation: config.tokens.activationTtlSeconds,
    reset: config.tokens.resetTtlSeconds,
  });
  // How long an account waits for its activation after its last link: the link's lifetime and a day (decision 110).
  const keptSeconds = config.tokens.activationTtlSeconds + WAITING_ACCOUNT_KEPT_AFTER_LINK_MS / 1000;
  const page = (path: string, params: Record<string, string>) => `${config.publicUrl}${fillPath(path, params)}`;

  const userById = async (id: number) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
  const accountByEmail = async (email: string) => (await db.select().from(users).where(userByEmail(email)).limit(1))[0];
  const supportRequest = async (id: number) =>
    (await db.select().from(supportRequests).where(eq(supportRequests.id, id)).limit(1))[0];

  const duplicate = async (subscriptionId: string) =>
    (
      await db
        .select()
        .from(duplicateSubscriptions)
        .where(eq(duplicateSubscriptions.subscriptionId, subscriptionId))
        .limit(1)
    )[0];

  const compose: { [K in MailJob['kind']]: (payload: Payload<K>) => Promise<OutgoingMail | undefined> } = {
    'mail.activation': async (payload) => {
      // Only to an account that was never activated: one staff deactivated waits for staff. The account records
      // when its newest link was made, which the purge of accounts never activated reads (decision 110).
      const now = new Date();
      const which = 'userId' in payload ? eq(users.id, payload.userId) : userByEmail(payload.email);
      const [user] = await db.update(users).set({ updatedAt: now }).where(and(which, awaitsActivation)).returning();
      if (!user) {
        // A resend for an address no account holds (the purge took its account, maybe as it was asked): the
        // mailbox is told to sign up again, where silence left the person waiting for a link (decision 118).
        if ('userId' in payload || (await accountByEmail(payload.email))) return undefined;
        const signup = `${config.publicUrl}${PAGES.signup}`;
        const link = payload.redirect ? `${signup}?redirect=${encodeURIComponent(payload.redirect)}` : signup;
        return noWaitingAccountMail(payload.email, link, days(keptSeconds));
      }
      const activation = page(EMAILED_PAGES.activation, {
        uid: encodeUid(user.id),
        token: tokens.make('activation', user, now),
      });
      // The share page signed up from, for the activation page to hand on to login (decision 052).
      const link = payload.redirect ? `${activation}?redirect=${encodeURIComponent(payload.redirect)}` : activation;
      return activationMail(user.email, link, days(config.tokens.activationTtlSeconds));
    },
    'mail.password-reset': async ({ email }) => {
      const user = await accountByEmail(email);
      if (!user || !user.isActive) return undefined;
      const link = page(EMAILED_PAGES.passwordReset, { uid: encodeUid(user.id), token: tokens.make('reset', user) });
      return passwordResetMail(user.email, link, Math.max(1, Math.round(config.tokens.resetTtlSeconds / 60)));
    },
    'mail.password-changed': async ({ userId, signedOut }) => {
      const user = await userById(userId);
      if (!user) return undefined;
      return passwordChangedMail(user.email, `${config.publicUrl}${EMAILED_PAGES.resetRequest}`, signedOut);
    },
    'mail.email-change': async ({ userId, newEmail }) => {
      const user = await userById(userId);
      // Staff deactivated the account since it asked: no link to change its address; nor once the person
      // cancelled this change or asked for another (docs/decisions/061-…).
      if (!user || !user.isActive || user.pendingEmail !== newEmail) return undefined;
      const link = page(EMAILED_PAGES.emailChange, {
        uid: encodeUid(user.id),
        token: tokens.makeEmailChange(user, newEmail),
      });
      return emailChangeMail(newEmail, link, days(config.tokens.activationTtlSeconds));
    },
    'mail.email-changed': async ({ oldEmail, newEmail }) => emailChangedMail(oldEmail, newEmail, config.supportEmail),
    'mail.support-request': async ({ requestId }) => {
      const row = await supportRequest(requestId);
      return row && supportRequestMail(config.supportEmail, row);
    },
    'mail.support-copy': async ({ requestId }) => {
      const row = await supportRequest(requestId);
      return (
        row &&
        supportCopyMail(row.email, row, {
          email: config.supportEmail,
          responseBusinessHours: SUPPORT.responseBusinessHours,
        })
      );
    },
    'mail.duplicate-refunded': async ({ subscriptionId }) => {
      const row = await duplicate(subscriptionId);
      const user = row && (await userById(row.userId));
      if (!user || !row.refundedAmount || !row.currency) return undefined;
      const refund = { amount: row.refundedAmount, currency: row.currency, plan: await planOf(db, user.id) };
      return duplicateRefundedMail(user.email, refund, `${config.publicUrl}${PAGES.profile}`);
    },
  };

  const handlers = {} as Record<MailJob['kind'], JobHandler>;
  for (const kind of Object.keys(payloads) as Array<MailJob['kind']>) {
    handlers[kind] = async (job) => {
      const parsed = payloads[kind].safeParse(job.payload);
      if (!parsed.success) throw new Error(`job ${job.id}: its payload is not a ${kind} payload`);
      const mail = await (compose[kind] as (payload: unknown) => Promise<OutgoingMail | undefined>)(parsed.data);
      if (!mail) {
        log.info({ job: job.id, kind }, 'mail not needed any more (the account changed meanwhile)');
        return;
      }
      await mailer.send({ ...mail, messageId: jobMessageId(job, config) }, log);
    };
  }
  return handlers;
}

/**
 * One Message-ID per job, the same at every attempt: a job is run again when its runner stopped before it was
 * marked done, even after the mail server took the mail, and mailboxes that keep one mail per Message-ID then
 * show it once. The job's creation time keeps ids apart across databases whose job numbers start over.
 */
export function jobMessageId(job: Pick<JobRow, 'id' | 'createdAt'>, config: Pick<Config, 'mailFrom' | 'publicUrl'>) {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(config.mailFrom)?.[1] ?? new URL(config.publicUrl).hostname;
  return `<job-${job.id}.${job.createdAt.getTime().toString(36)}@${domain}>`;
}
