import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  ADMIN_API,
  API,
  audioItemListSchema,
  audioLibraryStateSchema,
  desktopApplicationListSchema,
  messageCategoryListSchema,
} from '@shared/contract';
import { audioItems, desktopApplications, jobs, messageCategories, messages } from '../db/schema';
import { enqueueSeedAudio } from '../jobs/server-jobs';
import { storeMediaFile } from '../media/store';
import { SEED_TRACKS } from '../seed/media/catalog';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedMediaUrl } from '../test/media';
import { signedInUser, type SignedInUser } from '../test/fixtures';

let t: TestApp;
let user: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await signedInUser(t.ctx);
  const { db } = t.database;
  const [second, first] = await db
    .insert(messageCategories)
    .values([
      { name: 'Sleep', position: 2 },
      { name: 'Focus', position: 1 },
    ])
    .returning({ id: messageCategories.id });
  await db.insert(messages).values([
    { categoryId: first!.id, messageText: 'My attention is steady.', position: 1 },
    { categoryId: first!.id, messageText: 'I begin with one small step.', position: 0 },
    { categoryId: second!.id, messageText: 'My body knows how to rest.', position: 0 },
  ]);
  await db.insert(audioItems).values([
    {
      kind: 'selfeggio',
      name: '528 Hz',
      description: 'Warm.',
      audioFile: 'audio/selfeggio/a.mp3',
      coverImage: 'covers/a.webp',
      position: 1,
      dateAdded: new Date('2026-01-02T03:04:05Z'),
    },
    {
      kind: 'selfeggio',
      name: '174 Hz',
      description: 'Deep.',
      audioFile: 'audio/selfeggio/b.mp3',
      coverImage: null,
      position: 0,
    },
    { kind: 'bonus', name: 'Brown noise', audioFile: 'audio/bonus/c.mp3' },
    { kind: 'custom', name: 'Drone', audioFile: 'audio/custom/d.mp3' },
  ]);
});
afterAll(() => t.close());

const CALLS = [
  API.messageCategories,
  API.selfeggio,
  API.bonusAudio,
  API.customAudio,
  API.desktopExecutables,
  API.audioLibrary,
];

describe('content calls', () => {
  it.each(CALLS)('%s needs a signed-in user', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const bad = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nonsense' } });
    expect(bad.statusCode).toBe(401);
  });

  it('lists categories by position with their messages by position', async () => {
    const res = await t.app.inject({ method: 'GET', url: API.messageCategories, headers: user.headers });
    expect(res.statusCode).toBe(200);
    const body = messageCategoryListSchema.parse(res.json());
    expect(body.map((c) => c.name)).toEqual(['Focus', 'Sleep']);
    expect(body[0]!.messages.map((m) => m.message_text)).toEqual([
      'I begin with one small step.',
      'My attention is steady.',
    ]);
    expect(Object.keys(body[0]!.messages[0]!).sort()).toEqual(['id', 'message_text']);
  });

  it('lists each audio library with absolute media URLs and ISO dates', async () => {
    const res = await t.app.inject({ method: 'GET', url: API.selfeggio, headers: user.headers });
    expect(res.statusCode).toBe(200);
    const body = audioItemListSchema.parse(res.json());
    expect(body.map((a) => a.name)).toEqual(['174 Hz', '528 Hz']);
    expect(body[1]).toMatchObject({
      description: 'Warm.',
      audio_file: signedMediaUrl('audio/selfeggio/a.mp3'),
      cover_image: signedMediaUrl('covers/a.webp'),
      date_added: '2026-01-02T03:04:05.000Z',
    });
    expect(body[0]!.cover_image).toBeNull();
    expect(Object.keys(res.json()[0]).sort()).toEqual([
      'audio_file',
      'cover_image',
      'date_added',
      'description',
      'id',
      'name',
    ]);

    const bonus = audioItemListSchema.parse(
      (await t.app.inject({ method: 'GET', url: API.bonusAudio, headers: user.headers })).json(),
    );
    expect(bonus.map((a) => a.name)).toEqual(['Brown noise']);
    const custom = audioItemListSchema.parse(
      (await t.app.inject({ method: 'GET', url: API.customAudio, headers: user.headers })).json(),
    );
    expect(custom.map((a) => a.audio_file)).toEqual([signedMediaUrl('audio/custom/d.mp3')]);
  });

  it('lists desktop applications: empty at first, then the inserted rows', async () => {
    const empty = await t.app.inject({ method: 'GET', url: API.desktopExecutables, headers: user.headers });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    await t.database.db.insert(desktopApplications).values({
      applicationVersion: '1.2.0',
      description: 'Windows',
      applicationFile: 'applications/innerwave-1.2.0.exe',
    });
    // The lists are kept in memory: a write outside the admin calls is announced as they announce theirs.
    await t.ctx.notices.publish({ kind: 'content-changed' });
    const res = await t.app.inject({ method: 'GET', url: API.desktopExecutables, headers: user.headers });
    const body = desktopApplicationListSchema.parse(res.json());
    expect(body).toEqual([
      {
        id: expect.any(Number),
        application_version: '1.2.0',
        description: 'Windows',
        application_file: signedMediaUrl('applications/innerwave-1.2.0.exe', 'Innerwave-1.2.0.exe'),
      },
    ]);
  });

  it('lists the newest installer first, the one the page calls the latest', async () => {
    await t.database.db.insert(desktopApplications).values([
      {
        applicationVersion: '2.0.0',
        description: 'Windows',
        applicationFile: 'applications/innerwave-2.0.0.exe',
        createdAt: new Date('2026-03-01T00:00:00Z'),
      },
      {
        applicationVersion: '2.1.0',
        description: 'Windows',
        applicationFile: 'applications/innerwave-2.1.0.exe',
        createdAt: new Date('2026-04-01T00:00:00Z'),
      },
    ]);
    await t.ctx.notices.publish({ kind: 'content-changed' });
    const res = await t.app.inject({ method: 'GET', url: API.desktopExecutables, headers: user.headers });
    const versions = desktopApplicationListSchema.parse(res.json()).map((app) => app.application_version);
    expect(versions.indexOf('2.1.0')).toBeLessThan(versions.indexOf('2.0.0'));
  });

  it('answers 304 to a client that holds the current list, and a new tag once staff change it', async () => {
    const first = await t.app.inject({ method: 'GET', url: API.messageCategories, headers: user.headers });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url: API.messageCategories,
      headers: { ...user.headers, 'if-none-match': `W/${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const otherTag = await t.app.inject({
      method: 'GET',
      url: API.messageCategories,
      headers: { ...user.headers, 'if-none-match': '"something-else"' },
    });
    expect(otherTag.statusCode).toBe(200);
    expect(otherTag.json()).toEqual(first.json());

    const staff = await signedInUser(t.ctx, { isStaff: true });
    const created = await t.app.inject({
      method: 'POST',
      url: ADMIN_API.categories,
      headers: staff.headers,
      payload: { name: 'Courage' },
    });
    expect(created.statusCode).toBe(201);
    const after = await t.app.inject({
      method: 'GET',
      url: API.messageCategories,
      headers: { ...user.headers, 'if-none-match': etag },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(messageCategoryListSchema.parse(after.json()).map((c) => c.name)).toContain('Courage');
  });

  it('says the audio library is being prepared while its seed job is pending, the lists growing as it goes', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
    const state = async () => audioLibraryStateSchema.strict().parse((await get(API.audioLibrary)).json());
    const customNames = async () => audioItemListSchema.parse((await get(API.customAudio)).json()).map((i) => i.name);
    const { db } = t.database;
    expect(await customNames()).toEqual(['Drone']);

    // The first start: the build is queued, then runs; each track added shows at the next read.
    await enqueueSeedAudio(db, t.ctx.mediaFiles);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Past the few seconds that whether it is prepared is kept.
      vi.setSystemTime(Date.now() + 5_000);
      expect(await state()).toEqual({ preparing: true });
      await db
        .insert(audioItems)
        .values({ kind: 'custom', name: 'Ocean', audioFile: 'audio/custom/o.mp3', position: 1 });
      expect(await customNames()).toEqual(['Drone', 'Ocean']);
      await db.update(jobs).set({ status: 'running' }).where(eq(jobs.uniqueKey, 'seed.audio-library'));
      vi.setSystemTime(Date.now() + 5_000);
      expect(await state()).toEqual({ preparing: true });

      await db.update(jobs).set({ status: 'done' }).where(eq(jobs.uniqueKey, 'seed.audio-library'));
      vi.setSystemTime(Date.now() + 5_000);
      expect(await state()).toEqual({ preparing: false });
      // A build that gave up (dead) is not said to be on its way either.
      await enqueueSeedAudio(db, t.ctx.mediaFiles);
      await db.update(jobs).set({ status: 'dead' }).where(eq(jobs.status, 'queued'));
      vi.setSystemTime(Date.now() + 5_000);
      expect(await state()).toEqual({ preparing: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing is being prepared on a later start whose library is complete, while its job checks the files', async () => {
    const state = async () =>
      audioLibraryStateSchema
        .strict()
        .parse((await t.app.inject({ method: 'GET', url: API.audioLibrary, headers: user.headers })).json());
    const { db } = t.database;
    const files = t.ctx.mediaFiles;
    // Every seeded track, with its files, as a first start leaves them.
    await db.delete(jobs).where(eq(jobs.uniqueKey, 'seed.audio-library'));
    for (const [position, track] of SEED_TRACKS.entries()) {
      const audio = await storeMediaFile(files, `audio/${track.kind}`, Buffer.from(`audio of ${track.slug}`), 'mp3');
      const cover = await storeMediaFile(files, 'covers', Buffer.from(`cover of ${track.slug}`), 'webp');
      const same = and(eq(audioItems.kind, track.kind), sql`lower(${audioItems.name}) = lower(${track.name})`);
      await db.delete(audioItems).where(same);
      await db.insert(audioItems).values({
        kind: track.kind,
        name: track.name,
        audioFile: audio.relativePath,
        coverImage: cover.relativePath,
        position,
      });
    }
    const [last] = SEED_TRACKS.slice(-1);

    await enqueueSeedAudio(db, files);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Each answer past the few seconds the last one is kept, the other tests' clocks included.
    let at = Date.now() + 60_000;
    const later = () => vi.setSystemTime((at += 60_000));
    try {
      later();
      // The job is there, to check the files, and is not said to prepare anything.
      const [job] = await db.select().from(jobs).where(eq(jobs.uniqueKey, 'seed.audio-library'));
      expect(job).toMatchObject({ status: 'queued', payload: { building: false } });
      expect(await state()).toEqual({ preparing: false });

      // A track whose file went missing is built again: that is preparing.
      await db.delete(jobs).where(eq(jobs.uniqueKey, 'seed.audio-library'));
      const [row] = await db
        .select({ audioFile: audioItems.audioFile })
        .from(audioItems)
        .where(and(eq(audioItems.kind, last!.kind), eq(audioItems.name, last!.name)));
      await files.remove(row!.audioFile);
      await enqueueSeedAudio(db, files);
      later();
      expect(await state()).toEqual({ preparing: true });
    } finally {
      vi.useRealTimers();
    }
  });
});
