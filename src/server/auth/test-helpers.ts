import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { API } from '@shared/contract';
import { users } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp';
import type { ParsedMail } from '../test/eml';

// Shared steps of the account tests: real calls through app.inject, mail through a real SMTP server.

export const PASSWORD = 'Quiet-Harbour-58';

/** The app sending mail to a capturing SMTP server, with limits high enough for a whole test file. */
export async function startAccountsApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; smtp: SmtpCapture; close(): Promise<void> }> {
  const smtp = await startSmtpCapture();
  const t = await createTestApp({
    SMTP_URL: smtp.url,
    AUTH_RATE_LIMIT_PER_EMAIL: '100',
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    ...env,
  });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

export const post = (t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

/** The `{uid, token}` of the mail's link to `route`. */
export function linkParams(
  mail: ParsedMail,
  route: 'activation' | 'password-reset' | 'email/confirm',
): { uid: string; token: string } {
  const link = mail.links.find((candidate) => new URL(candidate).pathname.startsWith(`/${route}/`));
  if (!link) throw new Error(`no /${route}/ link in "${mail.subject}"`);
  const [uid, token] = new URL(link).pathname.split('/').slice(-2);
  return { uid: decodeURIComponent(uid!), token: decodeURIComponent(token!) };
}

/** A sign-up as the form sends it: the password typed twice, the terms accepted. */
export const signUp = (t: TestApp, email: string, password = PASSWORD) =>
  post(t, API.signup, { email, password, re_password: password, accept_terms: true });

export async function signupAndReadMail(t: TestApp, smtp: SmtpCapture, email: string, password = PASSWORD) {
  const response = await signUp(t, email, password);
  expect(response.statusCode, response.body).toBe(201);
  await t.ctx.jobs.settled();
  const mail = await smtp.waitFor(
    (m) => m.to.toLowerCase().includes(email.toLowerCase()) && m.subject.includes('Activate'),
  );
  return { id: response.json<{ id: number }>().id, mail };
}

export async function activeAccount(t: TestApp, smtp: SmtpCapture, email: string, password = PASSWORD) {
  const { id, mail } = await signupAndReadMail(t, smtp, email, password);
  const activation = await post(t, API.activation, linkParams(mail, 'activation'));
  expect(activation.statusCode, activation.body).toBe(204);
  return { id, email, password };
}

export async function loginPair(t: TestApp, email: string, password = PASSWORD) {
  const response = await post(t, API.tokenCreate, { email, password });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ access: string; refresh: string }>();
}

/** The account's row as the database holds it now (undefined once deleted). */
export const accountRow = async (t: TestApp, id: number) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0];
