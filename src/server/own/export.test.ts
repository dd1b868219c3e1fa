import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fillPath } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { ownTestKit } from './test-kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan } = ownTestKit(() => t);
const exportAs = (user: SignedInUser, format?: string) =>
  call(user, 'GET', format === undefined ? API.myMessagesExport : `${API.myMessagesExport}?format=${format}`);

/** Two categories: one with a comma, a quote, a line break and a would-be formula, one empty. */
async function fixtureUser() {
  const ada = await signedInUser(t.ctx);
  await setPlan(ada, 'pro');
  const morning = (await call(ada, 'POST', API.myCategories, { name: 'Morning, early' })).json();
  for (const message_text of ['I begin, slowly.', 'She said "yes".', 'Line one\nline two', '=1+2', '-ok @home'])
    await call(ada, 'POST', fillPath(API.myCategoryMessages, { id: morning.id }), { message_text });
  await call(ada, 'POST', API.myCategories, { name: '@Empty' });
  return ada;
}

describe('GET /api/user/my-messages/export/', () => {
  let ada: SignedInUser;
  const today = () => new Date().toISOString().slice(0, 10);
  beforeAll(async () => {
    ada = await fixtureUser();
  });

  it('writes TXT: a block per category, its name then one message a line', async () => {
    const res = await exportAs(ada, 'txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="innerwave-my-messages-${today()}.txt"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe(
      'Morning, early\nI begin, slowly.\nShe said "yes".\nLine one line two\n=1+2\n-ok @home\n\n@Empty\n',
    );
    // TXT is the default.
    expect((await exportAs(ada)).body).toBe(res.body);
  });

  it('writes CSV by RFC 4180, with an apostrophe before what a spreadsheet would run as a formula', async () => {
    const res = await exportAs(ada, 'csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="innerwave-my-messages-${today()}.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(
      res.rawPayload.equals(
        Buffer.from(
          '\uFEFFcategory,message\r\n' +
            '"Morning, early","I begin, slowly."\r\n' +
            '"Morning, early","She said ""yes""."\r\n' +
            '"Morning, early","Line one\nline two"\r\n' +
            '"Morning, early",\'=1+2\r\n' +
            '"Morning, early",\'-ok @home\r\n',
          'utf8',
        ),
      ),
    ).toBe(true);
  });

  it('writes JSON: the categories with their messages’ texts', async () => {
    const res = await exportAs(ada, 'json');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="innerwave-my-messages-${today()}.json"`);
    expect(res.body).toBe(
      `${JSON.stringify(
        [
          {
            name: 'Morning, early',
            messages: ['I begin, slowly.', 'She said "yes".', 'Line one\nline two', '=1+2', '-ok @home'],
          },
          { name: '@Empty', messages: [] },
        ],
        null,
        2,
      )}\n`,
    );
  });

  it('exports only the person’s own, and an empty account as empty files', async () => {
    const bob = await signedInUser(t.ctx);
    await setPlan(bob, 'pro');
    expect((await exportAs(bob, 'txt')).body).toBe('');
    expect((await exportAs(bob, 'csv')).body).toBe('\uFEFFcategory,message\r\n');
    expect((await exportAs(bob, 'json')).body).toBe('[]\n');
  });

  it('refuses an unknown format with the contract’s message', async () => {
    for (const format of ['xls', '', 'CSV']) {
      const res = await exportAs(ada, format);
      expect(res.statusCode, format).toBe(400);
      expect(res.json()).toEqual({ format: ['Choose txt, csv or json.'] });
    }
  });
});
