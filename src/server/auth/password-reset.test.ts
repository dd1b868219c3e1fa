import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MESSAGES } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { readOutbox } from '../test/eml';
import type { SmtpCapture } from '../test/smtp';
import {
  activeAccount,
  linkParams,
  loginPair,
  PASSWORD,
  post,
  signupAndReadMail,
  startAccountsApp,
} from './test-helpers';

const NEW_PASSWORD = 'Silver-Lantern-73';

describe('password reset', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp());
  });
  afterAll(() => close());

  const requestReset = async (email: string) => {
    const response = await post(t, API.resetPassword, { email });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    await t.ctx.jobs.settled();
  };
  const resetMailTo = (email: string) =>
    smtp.waitFor((m) => m.to.toLowerCase().includes(email) && m.subject.includes('Reset'));

  it('answers 204 for known and unknown addresses, and mails only the account', async () => {
    await activeAccount(t, smtp, 'curie@example.com');
    const before = smtp.mails.length;
    await requestReset('nobody-here@example.com');
    await requestReset('CURIE@example.com');
    const mail = await resetMailTo('curie@example.com');
    expect(smtp.mails.length).toBe(before + 1);
    expect(mail.text).toMatch(/http:\/\/innerwave\.test\/password-reset\/[\w-]+\/[\w-]+/);
    expect((await post(t, API.resetPassword, { email: 'not-an-address' })).json()).toEqual({
      email: [MESSAGES.invalidEmail],
    });
  });

  it('sets the new password once, ends every session and sends a notice', async () => {
    await activeAccount(t, smtp, 'noether@example.com');
    const sessions = [await loginPair(t, 'noether@example.com'), await loginPair(t, 'noether@example.com')];
    await requestReset('noether@example.com');
    const { uid, token } = linkParams(await resetMailTo('noether@example.com'), 'password-reset');

    const weak = await post(t, API.resetPasswordConfirm, {
      uid,
      token,
      new_password: '12345678',
      re_new_password: '12345678',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({
      new_password: ['This password is too common.', 'This password is entirely numeric.'],
    });
    const long = NEW_PASSWORD.padEnd(129, 'x');
    const tooLong = await post(t, API.resetPasswordConfirm, { uid, token, new_password: long, re_new_password: long });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toHaveProperty('new_password', ['Ensure this field has no more than 128 characters.']);
    const mismatch = await post(t, API.resetPasswordConfirm, {
      uid,
      token,
      new_password: NEW_PASSWORD,
      re_new_password: `${NEW_PASSWORD}x`,
    });
    expect(mismatch.json()).toEqual({ non_field_errors: ["The two password fields didn't match."] });
    const badToken = await post(t, API.resetPasswordConfirm, {
      uid,
      token: `${token}x`,
      new_password: NEW_PASSWORD,
      re_new_password: NEW_PASSWORD,
    });
    expect(badToken.json()).toEqual({ token: ['Invalid token for given user.'] });

    const done = await post(t, API.resetPasswordConfirm, {
      uid,
      token,
      new_password: NEW_PASSWORD,
      re_new_password: NEW_PASSWORD,
    });
    expect(done.statusCode).toBe(204);
    for (const pair of sessions) {
      expect(
        (await t.app.inject({ method: 'GET', url: API.me, headers: { authorization: `Bearer ${pair.access}` } }))
          .statusCode,
      ).toBe(401);
      expect((await post(t, API.tokenRefresh, { refresh: pair.refresh })).statusCode).toBe(401);
    }
    await t.ctx.jobs.settled();
    const notice = await smtp.waitFor(
      (m) => m.to.includes('noether@example.com') && m.subject.includes('password was changed'),
    );
    expect(notice.text).toContain('was just changed');

    const again = await post(t, API.resetPasswordConfirm, {
      uid,
      token,
      new_password: 'Another-Path-99',
      re_new_password: 'Another-Path-99',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ token: ['Invalid token for given user.'] });
    expect((await post(t, API.tokenCreate, { email: 'noether@example.com', password: PASSWORD })).statusCode).toBe(401);
    await loginPair(t, 'noether@example.com', NEW_PASSWORD);
  });

  it('never takes an activation token for a reset token, nor the reverse', async () => {
    const { mail } = await signupAndReadMail(t, smtp, 'meitner@example.com');
    const activation = linkParams(mail, 'activation');
    const asReset = await post(t, API.resetPasswordConfirm, {
      ...activation,
      new_password: NEW_PASSWORD,
      re_new_password: NEW_PASSWORD,
    });
    expect(asReset.statusCode).toBe(400);
    expect(asReset.json()).toEqual({ token: ['Invalid token for given user.'] });

    expect((await post(t, API.activation, activation)).statusCode).toBe(204);
    await requestReset('meitner@example.com');
    const reset = linkParams(await resetMailTo('meitner@example.com'), 'password-reset');
    expect((await post(t, API.activation, reset)).statusCode).toBe(400);
  });
});

describe('password reset timing', () => {
  let t: TestApp;
  // Mail goes to the outbox folder, not to the SMTP stand-in: the stand-in waits 100 ms before it greets
  // each connection (smtp-server's check for clients that talk too soon), and each sample waits for its mail.
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: '100000', AUTH_RATE_LIMIT_PER_ADDRESS: '100000' });
    await signedInUser(t.ctx, { email: 'lamarr@example.com' });
  });
  afterAll(() => t.close());

  const mailsToKnown = async () =>
    (await readOutbox(t.ctx.mailer.outboxDir!)).filter((mail) => mail.to.includes('lamarr@example.com'));

  // A statistical test on a shared machine: a real leak fails every attempt, a burst of noise does not.
  // Each sample waits for its job (a mail for the known address), so an attempt can take a minute
  // beside the other test files.
  it(
    'answers a known and an unknown address in the same time (no account enumeration)',
    { retry: 2, timeout: 180_000 },
    async () => {
      const sample = async (email: string) => {
        const started = process.hrtime.bigint();
        const response = await post(t, API.resetPassword, { email });
        const took = Number(process.hrtime.bigint() - started);
        expect(response.statusCode).toBe(204);
        // What follows the answer (the look-up, the mail) is not what a client can time; let it finish,
        // with the sockets it used, before the next sample.
        await t.ctx.jobs.settled();
        await new Promise((resolve) => setTimeout(resolve, 20));
        return took;
      };
      // An attempt that is tried again finds the mails of the attempts before it.
      const mailedBefore = (await mailsToKnown()).length;
      for (let i = 0; i < 20; i++) await sample(`warm-up-${i}@example.com`);
      // Blocks in ABBA order, so drift on the machine and what one sample leaves behind touch both alike;
      // one address each, so the rate limiter's counters cost the same on both paths. Each block's
      // known ÷ unknown is compared, and their median judged: a leak (a look-up or a hash on one path
      // only) shifts every block, while the other test files' noise comes in bursts that touch a few
      // (on a loaded 2-core machine, p90s of the two paths came 0.79 apart with their p50s alike).
      const ratios: number[] = [];
      let knownSamples = 0;
      for (let i = 0; i < 100; i++) {
        const knownFirst = await sample('lamarr@example.com');
        const unknownFirst = await sample('nobody@example.com');
        const unknownSecond = await sample('nobody@example.com');
        const knownSecond = await sample('lamarr@example.com');
        knownSamples += 2;
        ratios.push((knownFirst + knownSecond) / (unknownFirst + unknownSecond));
      }
      // The known address took the known path: every one of its samples mailed a link.
      expect(await mailsToKnown()).toHaveLength(mailedBefore + knownSamples);
      const median = [...ratios].sort((a, b) => a - b)[ratios.length / 2]!;
      expect(median, 'median of the blocks’ known ÷ unknown').toBeGreaterThan(1 / 1.1);
      expect(median, 'median of the blocks’ known ÷ unknown').toBeLessThan(1.1);
    },
  );
});
