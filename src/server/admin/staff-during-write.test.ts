import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_API, adminPath, type AdminProgramWrite } from '@shared/contract';
import { revokeAllSessions } from '../auth/sessions';
import type { Db } from '../db/client';
import { audioItems, messageCategories, messages, profiles, programs, users } from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody, sendJsonWhile } from '../test/multipart';
import { createTestApp, type TestApp } from '../test/test-app';
import { fakeMp3 } from './test/fake-audio';

// A staff member deactivated, no longer staff or signed out everywhere while a JSON body is still arriving
// (it may take up to the request timeout, after the check before the body): nothing of it is kept
// (docs/product/api.md#admin).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const deactivated = (staff: SignedInUser) => () =>
  t.database.db.update(users).set({ isActive: false }).where(eq(users.id, staff.id));
const demoted = (staff: SignedInUser) => () =>
  t.database.db.update(users).set({ isStaff: false }).where(eq(users.id, staff.id));
const signedOutEverywhere = (staff: SignedInUser) => () => revokeAllSessions(t.database.db, staff.id);

const ENDED = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };
const NOT_STAFF = { detail: 'You do not have permission to perform this action.' };

const messagesFile = { categories: [{ name: 'Calm', messages: ['I breathe slowly.', 'I am here.'] }] };
const program: AdminProgramWrite = {
  slug: 'late-pause',
  title: 'Late Pause',
  summary: 'One short evening.',
  goals: ['calm'],
  days: [{ title: 'Evening 1', intro: 'Sit comfortably.', minutes: 5, messages: ['I slow down.'], layers: [] }],
};

/** What staff's writes below could change, read straight from the database. */
const stored = async () => {
  const { db } = t.database;
  return {
    categories: await db.select().from(messageCategories),
    messages: await db.select().from(messages),
    programs: await db.select({ slug: programs.slug, title: programs.title }).from(programs),
    audio: await db.select({ id: audioItems.id, name: audioItems.name }).from(audioItems),
    plans: await db.select({ id: profiles.userId, plan: profiles.subscriptionPlan }).from(profiles),
  };
};

describe('a staff member who may no longer write while the body arrives', () => {
  it('keeps nothing of an import, a category, a program, a plan or an audio item’s name', async () => {
    const owner = await signedInUser(t.ctx, { isStaff: true });
    const upload = multipartBody({
      name: 'Rain',
      description: 'A calm tone.',
      audio_file: { filename: 'tone.mp3', content: fakeMp3(64 * 1024) },
    });
    const item = await t.app.inject({
      method: 'POST',
      url: '/api/admin/audio/bonus/',
      payload: upload.payload,
      headers: { ...owner.headers, ...upload.headers },
    });
    expect(item.statusCode, item.body).toBe(201);
    const person = await signedInUser(t.ctx);
    const before = await stored();
    const writes = [
      [{ url: ADMIN_API.categoriesImport, body: messagesFile }, demoted, 403, NOT_STAFF],
      [{ url: ADMIN_API.categoriesImport, body: messagesFile }, signedOutEverywhere, 401, ENDED],
      [{ url: ADMIN_API.categories, body: { name: 'Focus' } }, deactivated, 401, ENDED],
      [{ url: ADMIN_API.programs, body: program }, signedOutEverywhere, 401, ENDED],
      [
        { method: 'PATCH', url: adminPath(ADMIN_API.user, { id: person.id }), body: { subscription_plan: 'pro' } },
        demoted,
        403,
        NOT_STAFF,
      ],
      [
        { method: 'PATCH', url: `/api/admin/audio/bonus/${item.json().id}/`, body: { name: 'Storm' } },
        deactivated,
        401,
        ENDED,
      ],
    ] as const;
    for (const [request, change, status, answer] of writes) {
      const staff = await signedInUser(t.ctx, { isStaff: true });
      const res = await sendJsonWhile(t, { ...request, headers: staff.headers }, change(staff));
      expect([request.url, res.statusCode, res.json()]).toEqual([request.url, status, answer]);
    }
    expect(await stored()).toEqual(before);
  });

  it('keeps no import when staff is lost as its transaction opens, after the body', async () => {
    const { db } = t.database;
    const transaction = db.transaction.bind(db);
    const staff = await signedInUser(t.ctx, { isStaff: true });
    let change: () => Promise<unknown> = demoted(staff);
    const held = vi.spyOn(db, 'transaction').mockImplementation(async (...args: Parameters<Db['transaction']>) => {
      const landing = change;
      change = () => Promise.resolve();
      await landing();
      return transaction(...args);
    });
    const before = await stored();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: ADMIN_API.categoriesImport,
        payload: messagesFile,
        headers: staff.headers,
      });
      expect([res.statusCode, res.json()]).toEqual([403, NOT_STAFF]);
    } finally {
      held.mockRestore();
    }
    expect(await stored()).toEqual(before);
  });
});
