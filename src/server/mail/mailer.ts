import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

// Account e-mail: over SMTP when SMTP_URL is set, otherwise written as .eml files into
// DATA_DIR/outbox. Outside production the mail's link is logged too, so a person trying Innerwave
// locally can activate; in production a log line must never hold a usable link.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where answers go when not to the sender (a support request is answered to the person who sent it). */
  replyTo?: string;
  /** The link the mail is about; logged when the mail goes to the outbox. */
  link?: string;
  /**
   * The Message-ID header, `<…@…>`. A job's mail sent again (its runner stopped after the mail server took it)
   * keeps its first one, so a mailbox shows it once; nodemailer makes a new one when it is not set.
   */
  messageId?: string;
}

type Logger = Pick<FastifyBaseLogger, 'info' | 'error'>;

export interface Mailer {
  /** Sends one mail; rejects when it cannot be delivered. */
  send(mail: OutgoingMail, log: Logger): Promise<void>;
  close(): void;
  readonly outboxDir: string | undefined;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  /** Whether the outbox's log line may show the mail's link (never in production). */
  logLinks: boolean;
}

export function createMailer(options: MailerOptions): Mailer {
  const outboxDir = options.smtpUrl ? undefined : path.join(options.dataDir, 'outbox');
  const transport: Transporter = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  async function send(mail: OutgoingMail, log: Logger): Promise<void> {
    // base64 bodies keep the files easy to decode and any line length safe.
    const message = {
      from: options.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.replyTo && { replyTo: mail.replyTo }),
      ...(mail.messageId && { messageId: mail.messageId }),
      textEncoding: 'base64' as const,
    };
    const info = (await transport.sendMail(message)) as { message?: Buffer; messageId?: string };
    if (!outboxDir) {
      log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent over SMTP');
      return;
    }
    if (!info.message) throw new Error('the stream transport returned no message');
    await mkdir(outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = path.join(outboxDir, name);
    const temp = path.join(outboxDir, `.${name}.tmp`);
    await writeFile(temp, info.message);
    await rename(temp, file);
    const link = mail.link && options.logLinks ? ` → ${mail.link}` : '';
    log.info({ to: mail.to, file }, `mail written to the outbox: ${mail.subject}${link}`);
  }

  return {
    outboxDir,
    send,
    close: () => transport.close(),
  };
}
