import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { revokeAllSessions, revokeSession } from './sessions';
import {
  guidancePreferences,
  listeningHistory,
  ownCategories,
  profiles,
  savedSubliminals,
  supportRequests,
  users,
} from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { sendJsonWhile } from '../test/multipart';
import { createTestApp, type TestApp } from '../test/test-app';

// A person signed out (in another tab, everywhere), deactivated, deleted or moved to a plan without the feature
// while a JSON body is still arriving (it may take up to the request timeout, after the check before the body):
// the write is answered as it would have been had the body come at once, and keeps nothing (docs/product/api.md).
// The changes are made in the database, past this worker's cache of sessions, as another server's would be.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ENDED = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

const signedOut = (user: SignedInUser) => () => revokeSession(t.database.db, user.sessionId);
const signedOutEverywhere = (user: SignedInUser) => () => revokeAllSessions(t.database.db, user.id);
const deactivated = (user: SignedInUser) => () =>
  t.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
const deleted = (user: SignedInUser) => () => t.database.db.delete(users).where(eq(users.id, user.id));
const toBasic = (user: SignedInUser) => () =>
  t.database.db.update(profiles).set({ subscriptionPlan: 'basic' }).where(eq(profiles.userId, user.id));

/** What the writes below could keep, read straight from the database. */
const stored = async () => {
  const { db } = t.database;
  return {
    categories: await db.select().from(ownCategories),
    subliminals: await db.select().from(savedSubliminals),
    preferences: await db.select().from(guidancePreferences),
    history: await db.select().from(listeningHistory),
    support: await db.select().from(supportRequests),
  };
};

const subliminal = {
  name: 'Morning calm',
  playlist: [{ message_text: 'I am calm.', source: 'library', message_id: 3 }],
  settings: { flashSpeed: 120, displayInterval: 2500, messageColor: '#FDBA74', fontSize: 30, theme: 'dawn' },
};
const listened = {
  kind: 'program',
  ref: 'program:seven-nights-of-rest/1',
  title: 'Seven Nights of Rest · Day 1',
  seconds: 600,
  finished: true,
  started_at: new Date(Date.now() - 15 * 60_000).toISOString(),
};

describe('a person who may no longer write while the body arrives', () => {
  it('is answered 401 token_not_valid or 403 plan_required, keeping nothing, in every module', async () => {
    const writes = [
      [{ url: API.myCategories, body: { name: 'Evening' } }, signedOut, 401, ENDED],
      [{ url: API.subliminals, body: subliminal }, signedOutEverywhere, 401, ENDED],
      [
        { url: API.subliminals, body: subliminal },
        toBasic,
        403,
        {
          detail: 'Saving subliminals is part of the Intermediate plan.',
          code: 'plan_required',
          required_plan: 'intermediate',
        },
      ],
      [{ method: 'PUT', url: API.onboarding, body: { goals: ['sleep'] } }, deactivated, 401, ENDED],
      [{ url: API.history, body: listened }, deleted, 401, ENDED],
      [{ url: API.support, body: { subject: 'Sound', message: 'No sound on my phone.' } }, signedOut, 401, ENDED],
      // Billing without Stripe keys answers 503 to the signed-in; a session ended is told so first.
      [{ url: API.billingCheckout, body: { plan: 'pro' } }, signedOutEverywhere, 401, ENDED],
    ] as const;
    const before = await stored();
    const answers = [];
    for (const [request, change] of writes) {
      const person = await signedInUser(t.ctx);
      await t.database.db.insert(profiles).values({ userId: person.id, subscriptionPlan: 'intermediate' });
      const res = await sendJsonWhile(t, { ...request, headers: person.headers }, change(person));
      answers.push([request.url, change.name, res.statusCode, res.json()]);
    }
    expect(answers).toEqual(
      writes.map(([request, change, status, answer]) => [request.url, change.name, status, answer]),
    );
    expect(await stored()).toEqual(before);
  });

  it('is answered 401 over a socket whose client sent the body once told to go on, after the session ended', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const person = await signedInUser(t.ctx);
    const body = JSON.stringify({ name: 'Evening' });
    const answer = await new Promise<{ status?: number; text: string }>((resolve, reject) => {
      const sent = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: API.myCategories,
        headers: {
          ...person.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      });
      // 100 Continue: the server let the request in and waits for its body.
      sent.on('continue', () => void signedOut(person)().then(() => sent.end(body), reject));
      sent.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode, text }));
      });
      sent.on('error', reject);
    });
    expect([answer.status, JSON.parse(answer.text)]).toEqual([401, ENDED]);
    expect(await t.database.db.select().from(ownCategories).where(eq(ownCategories.userId, person.id))).toEqual([]);
  });

  it('still writes for a person whose session and plan held', async () => {
    const person = await signedInUser(t.ctx);
    await t.database.db.insert(profiles).values({ userId: person.id, subscriptionPlan: 'intermediate' });
    const other = await signedInUser(t.ctx);
    const res = await sendJsonWhile(
      t,
      { url: API.subliminals, body: subliminal, headers: person.headers },
      signedOut(other),
    );
    expect(res.statusCode, res.body).toBe(201);
  });
});
