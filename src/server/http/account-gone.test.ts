import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, fillPath } from '@shared/contract';
import type { Db } from '../db/client';
import {
  guidancePreferences,
  listeningHistory,
  ownCategories,
  profiles,
  programProgress,
  savedSubliminals,
  users,
} from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { seedPrograms } from '../guidance/programs';

// A write for an account deleted after its token was checked (docs/product/errors-and-limits.md), as in another
// tab while the write runs: the session stays live in this worker's cache, as another worker's deletion leaves it
// until the notice arrives. A call without a body finds the account gone when it writes; a call with one is asked
// again once its body is in (docs/product/api.md), so the account goes after that, as the write starts.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedPrograms(t.database.db);
});
afterAll(() => t.close());

const TOKEN_NOT_VALID = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

const deleteAccount = (user: SignedInUser) => t.database.db.delete(users).where(eq(users.id, user.id));

/** A signed-in person whose session this worker has checked, whose account is then deleted. */
async function goneAfterTheCheck(user: SignedInUser): Promise<void> {
  expect((await t.app.inject({ method: 'GET', url: API.me, headers: user.headers })).statusCode).toBe(200);
  await deleteAccount(user);
}

/** The account is deleted just before the next transaction opens. */
function goneAsTheTransactionOpens(user: SignedInUser): void {
  const { db } = t.database;
  const transaction = db.transaction.bind(db);
  vi.spyOn(db, 'transaction').mockImplementationOnce(async (...args: Parameters<Db['transaction']>) => {
    await deleteAccount(user);
    return transaction(...args);
  });
}

/** The account is deleted just before the next insert outside a transaction is sent. */
function goneAsItInserts(user: SignedInUser): void {
  const { db } = t.database;
  const insert = db.insert.bind(db);
  vi.spyOn(db, 'insert').mockImplementationOnce((table) => {
    const builder = insert(table);
    const values = builder.values.bind(builder);
    return Object.assign(builder, {
      values: (rows: Parameters<typeof values>[0]) => {
        const query = values(rows);
        const send = query.then.bind(query);
        return Object.assign(query, {
          then: (...callbacks: Parameters<typeof send>) => deleteAccount(user).then(() => send(...callbacks)),
        });
      },
    });
  });
}

const listened = {
  kind: 'program',
  ref: 'program:seven-nights-of-rest/1',
  title: 'Seven Nights of Rest · Day 1',
  seconds: 600,
  finished: true,
  started_at: new Date(Date.now() - 15 * 60_000).toISOString(),
};

/** A message set shared by someone else, to copy. */
async function sharedMessages(): Promise<string> {
  const owner = await signedInUser(t.ctx);
  await t.database.db.insert(profiles).values({ userId: owner.id, subscriptionPlan: 'pro' });
  const headers = owner.headers;
  const category = await t.app.inject({ method: 'POST', url: API.myCategories, headers, payload: { name: 'Calm' } });
  const { id } = category.json();
  await t.app.inject({
    method: 'POST',
    url: fillPath(API.myCategoryMessages, { id }),
    headers,
    payload: { message_text: 'I am calm.' },
  });
  const link = await t.app.inject({ method: 'POST', url: fillPath(API.myCategoryShare, { id }), headers });
  expect(link.statusCode, link.body).toBe(201);
  return link.json().token;
}

/** A subliminal shared by someone else, to copy: the copier's plan is asked first (saving subliminals). */
async function sharedSubliminal(): Promise<string> {
  const owner = await signedInUser(t.ctx);
  await t.database.db.insert(profiles).values({ userId: owner.id, subscriptionPlan: 'pro' });
  const headers = owner.headers;
  const saved = await t.app.inject({
    method: 'POST',
    url: API.subliminals,
    headers,
    payload: {
      name: 'Morning calm',
      playlist: [{ message_text: 'I am calm.', source: 'library', message_id: 3 }],
      settings: { flashSpeed: 120, displayInterval: 2500, messageColor: '#FDBA74', fontSize: 30, theme: 'dawn' },
    },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  const link = await t.app.inject({
    method: 'POST',
    url: fillPath(API.subliminalShare, { id: saved.json().id }),
    headers,
  });
  expect(link.statusCode, link.body).toBe(201);
  return link.json().token;
}

describe('a write for an account deleted after its token was checked', () => {
  afterEach(() => vi.restoreAllMocks());
  type Write = [
    what: string,
    method: 'GET' | 'POST' | 'PUT',
    url: () => string | Promise<string>,
    payload: object | undefined,
    gone: (user: SignedInUser) => unknown,
  ];
  it.each<Write>([
    ['reading the profile the first time (its row is made)', 'GET', () => API.profile, undefined, goneAfterTheCheck],
    [
      'recording a session listened to (a transaction holding the account’s row)',
      'POST',
      () => API.history,
      listened,
      goneAsTheTransactionOpens,
    ],
    [
      'answering the onboarding (an upsert outside a transaction)',
      'PUT',
      () => API.onboarding,
      { goals: ['sleep'] },
      goneAsItInserts,
    ],
    [
      'adding an own category (a transaction that locks the account’s row to count against the plan)',
      'POST',
      () => API.myCategories,
      { name: 'Evening' },
      goneAsTheTransactionOpens,
    ],
    [
      'marking a program’s day done (an insert that does nothing on conflict)',
      'POST',
      () => fillPath(API.programDayComplete, { slug: 'seven-nights-of-rest', day: 1 }),
      undefined,
      goneAfterTheCheck,
    ],
    [
      'copying a shared message set (a category and its messages together)',
      'POST',
      async () => fillPath(API.sharedCopy, { token: await sharedMessages() }),
      undefined,
      goneAfterTheCheck,
    ],
    [
      'copying a shared subliminal (the plan asked first: no profile is no account, not the basic plan)',
      'POST',
      async () => fillPath(API.sharedCopy, { token: await sharedSubliminal() }),
      undefined,
      goneAfterTheCheck,
    ],
    [
      'reading one’s plan (no profile is no account, not the basic plan)',
      'GET',
      () => API.plan,
      undefined,
      goneAfterTheCheck,
    ],
    [
      'asking for recommendations (the plan asked first)',
      'GET',
      () => API.recommendations,
      undefined,
      goneAfterTheCheck,
    ],
  ])('is answered 401 token_not_valid, keeping nothing: %s', async (_what, method, url, payload, gone) => {
    const user = await signedInUser(t.ctx);
    const path = await url();
    await gone(user);
    const res = await t.app.inject({ method, url: path, headers: user.headers, ...(payload && { payload }) });
    expect([res.statusCode, res.json()]).toEqual([401, TOKEN_NOT_VALID]);
    const { db } = t.database;
    expect({
      profile: await db.select().from(profiles).where(eq(profiles.userId, user.id)),
      preferences: await db.select().from(guidancePreferences).where(eq(guidancePreferences.userId, user.id)),
      history: await db.select().from(listeningHistory).where(eq(listeningHistory.userId, user.id)),
      categories: await db.select().from(ownCategories).where(eq(ownCategories.userId, user.id)),
      progress: await db.select().from(programProgress).where(eq(programProgress.userId, user.id)),
      subliminals: await db.select().from(savedSubliminals).where(eq(savedSubliminals.userId, user.id)),
    }).toEqual({ profile: [], preferences: [], history: [], categories: [], progress: [], subliminals: [] });
  });
});
