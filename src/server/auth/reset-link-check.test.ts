import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import type { TestApp } from '../test/test-app';
import type { SmtpCapture } from '../test/smtp';
import { createAccountTokens, encodeUid } from './account-tokens';
import { accountRow, activeAccount, linkParams, loginPair, post, startAccountsApp } from './test-helpers';

// The check a reset page makes when it opens (docs/decisions/145-…): the confirm's verdict on the link, nothing
// changed and nothing more said.

const NEW_PASSWORD = 'Silver-Lantern-73';
const deadToken = { token: ['Invalid token for given user.'] };

describe('reset link check', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp());
  });
  afterAll(() => close());

  const mailedLink = async (email: string) => {
    expect((await post(t, API.resetPassword, { email })).statusCode).toBe(204);
    await t.ctx.jobs.settled();
    return linkParams(
      await smtp.waitFor((m) => m.to.toLowerCase().includes(email) && m.subject.includes('Reset')),
      'password-reset',
    );
  };
  const check = (body: unknown) => post(t, API.resetPasswordCheck, body);
  const confirm = (link: { uid: string; token: string }) =>
    post(t, API.resetPasswordConfirm, { ...link, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });

  it('answers 204 for a live link, changes nothing, and the link then sets the password', async () => {
    const { id } = await activeAccount(t, smtp, 'hopper@example.com');
    const link = await mailedLink('hopper@example.com');
    const before = await accountRow(t, id);
    for (let i = 0; i < 3; i++) {
      const answer = await check(link);
      expect(answer.statusCode, answer.body).toBe(204);
      expect(answer.body).toBe('');
    }
    expect(await accountRow(t, id)).toEqual(before);
    expect((await confirm(link)).statusCode).toBe(204);
  });

  it('answers a used link as the confirm does', async () => {
    await activeAccount(t, smtp, 'franklin@example.com');
    const link = await mailedLink('franklin@example.com');
    expect((await confirm(link)).statusCode).toBe(204);
    const answer = await check(link);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual(deadToken);
    expect((await confirm(link)).json()).toEqual(answer.json());
  });

  it('answers a link ended by a login since it was sent as dead (decisions.md §10)', async () => {
    await activeAccount(t, smtp, 'goodall@example.com');
    const link = await mailedLink('goodall@example.com');
    expect((await check(link)).statusCode).toBe(204);
    await loginPair(t, 'goodall@example.com');
    const answer = await check(link);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual(deadToken);
  });

  it('answers an expired link as dead', async () => {
    const { id } = await activeAccount(t, smtp, 'carson@example.com');
    const tokens = createAccountTokens(t.config.secretKey, {
      activation: 259_200,
      reset: t.config.tokens.resetTtlSeconds,
    });
    const made = new Date(Date.now() - (t.config.tokens.resetTtlSeconds + 60) * 1000);
    const link = { uid: encodeUid(id), token: tokens.make('reset', (await accountRow(t, id))!, made) };
    const answer = await check(link);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual(deadToken);
    // The same link made a minute ago lives: the age alone decided.
    const fresh = {
      uid: link.uid,
      token: tokens.make('reset', (await accountRow(t, id))!, new Date(Date.now() - 60_000)),
    };
    expect((await check(fresh)).statusCode).toBe(204);
  });

  it('answers a broken or made-up link with the confirm’s 400, and wrong shapes with the contract’s, never a 5xx', async () => {
    const { id } = await activeAccount(t, smtp, 'sagan@example.com');
    const link = await mailedLink('sagan@example.com');
    const cases: Array<[unknown, Record<string, unknown>]> = [
      [{ ...link, token: `${link.token}x` }, deadToken],
      [{ ...link, token: link.token.slice(0, -3) }, deadToken],
      [{ ...link, token: 'x'.repeat(5000) }, deadToken],
      [{ uid: encodeUid(id + 100_000), token: link.token }, { uid: ["Invalid user id or user doesn't exist."] }],
      [{ uid: '%%%<script>', token: link.token }, { uid: ["Invalid user id or user doesn't exist."] }],
      [{ uid: 'MA', token: link.token }, { uid: ["Invalid user id or user doesn't exist."] }],
      [{ uid: 'x'.repeat(5000), token: link.token }, { uid: ["Invalid user id or user doesn't exist."] }],
    ];
    for (const [body, expected] of cases) {
      const answer = await check(body);
      expect(answer.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.json()).toEqual(expected);
      // The confirm answers the same link alike: the check says nothing more.
      const confirmed = await post(t, API.resetPasswordConfirm, {
        ...(body as object),
        new_password: NEW_PASSWORD,
        re_new_password: NEW_PASSWORD,
      });
      expect(confirmed.json()).toEqual(expected);
    }
    const shapes = [
      {},
      { uid: link.uid },
      { uid: 1, token: 2 },
      { uid: [link.uid], token: { a: 1 } },
      { uid: '', token: '' },
      null,
      'uid',
    ];
    for (const body of shapes) {
      const answer = await t.app.inject({
        method: 'POST',
        url: API.resetPasswordCheck,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      const fields = answer.json<Record<string, unknown>>();
      expect(
        Object.values(fields).every((messages) => Array.isArray(messages)),
        answer.body,
      ).toBe(true);
    }
    const huge = await t.app.inject({
      method: 'POST',
      url: API.resetPasswordCheck,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...link, padding: 'x'.repeat(200_000) }),
    });
    expect(huge.statusCode).toBe(413);
    const notJson = await t.app.inject({
      method: 'POST',
      url: API.resetPasswordCheck,
      headers: { 'content-type': 'application/json' },
      payload: '{"uid": ',
    });
    expect(notJson.statusCode).toBe(400);
    // None of it ended the link.
    expect((await check(link)).statusCode).toBe(204);
  });
});

describe('reset link check limits', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp({
      AUTH_RATE_LIMIT_PER_EMAIL: '3',
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    }));
  });
  afterAll(() => close());

  it('spends the confirm’s attempts: wrong links through either count toward one limit of the account', async () => {
    const { id } = await activeAccount(t, smtp, 'lamarr@example.com');
    const wrong = { uid: encodeUid(id), token: `1-${'x'.repeat(32)}` };
    const confirmWrong = () =>
      post(t, API.resetPasswordConfirm, { ...wrong, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect((await post(t, API.resetPasswordCheck, wrong)).statusCode).toBe(400);
    expect((await confirmWrong()).statusCode).toBe(400);
    expect((await post(t, API.resetPasswordCheck, wrong)).statusCode).toBe(400);
    expect((await confirmWrong()).statusCode).toBe(429);
    expect((await post(t, API.resetPasswordCheck, wrong)).statusCode).toBe(429);
  });
});
