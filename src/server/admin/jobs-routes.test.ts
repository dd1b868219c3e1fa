import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { insertJob } from '../jobs/queue';
import { jobs } from '../jobs/table';

describe('admin jobs API', () => {
  let t: TestApp;
  let staff: SignedInUser;
  let member: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
    member = await signedInUser(t.ctx, { email: 'member@example.com' });
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/admin/jobs/'],
    ['POST', '/api/admin/jobs/1/retry/'],
  ] as const)('%s %s answers 401 without a token and 403 for a normal user', async (method, url) => {
    expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    const normal = await t.app.inject({ method, url, headers: member.headers });
    expect(normal.statusCode).toBe(403);
  });

  it('counts jobs by status, lists the failed and dead ones, and retries a dead one', async () => {
    // No runner has these kinds: they stay as written.
    const dead = (await insertJob(t.database.db, { kind: 'test.unknown', payload: { userId: 7 } }))!;
    await t.database.db
      .update(jobs)
      .set({ status: 'dead', attempts: 8, lastError: 'SMTP said no', finishedAt: new Date() })
      .where(eq(jobs.id, dead));
    const done = (await insertJob(t.database.db, { kind: 'test.unknown' }))!;
    await t.database.db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, done));

    const all = await t.app.inject({ method: 'GET', url: '/api/admin/jobs/', headers: staff.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().counts).toMatchObject({ dead: 1, done: 1, failed: 0 });
    expect(all.json().results).toHaveLength(2);

    const problems = await t.app.inject({
      method: 'GET',
      url: '/api/admin/jobs/?status=failed,dead',
      headers: staff.headers,
    });
    expect(problems.json().results).toEqual([
      expect.objectContaining({
        id: dead,
        kind: 'test.unknown',
        status: 'dead',
        attempts: 8,
        max_attempts: 8,
        payload: { userId: 7 },
        last_error: 'SMTP said no',
      }),
    ]);

    const wrong = await t.app.inject({ method: 'GET', url: '/api/admin/jobs/?status=stuck', headers: staff.headers });
    expect(wrong.statusCode).toBe(400);

    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/admin/jobs/${dead}/retry/`,
      headers: staff.headers,
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: dead, status: 'queued', attempts: 0, finished_at: null });

    const again = await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${done}/retry/`, headers: staff.headers });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toContain('only a failed or dead job');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/jobs/999999/retry/',
      headers: staff.headers,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('does not run a dead job again while a later one of the same work waits', async () => {
    // A dead purge of sessions, and the next one the runner has queued since.
    const dead = (await insertJob(t.database.db, { kind: 'test.recurring', uniqueKey: 'test.recurring' }))!;
    await t.database.db.update(jobs).set({ status: 'dead', attempts: 8 }).where(eq(jobs.id, dead));
    const next = (await insertJob(t.database.db, { kind: 'test.recurring', uniqueKey: 'test.recurring' }))!;

    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/admin/jobs/${dead}/retry/`,
      headers: staff.headers,
    });
    expect(retried.statusCode).toBe(400);
    expect(retried.json().detail).toBe(
      `Job ${dead} is not run again: another job of the same work is already waiting or running.`,
    );
    const rows = await t.database.db.select().from(jobs).where(eq(jobs.kind, 'test.recurring'));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({ [dead]: 'dead', [next]: 'queued' });

    // Once that one is done, the dead one may run again.
    await t.database.db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, next));
    const later = await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${dead}/retry/`, headers: staff.headers });
    expect(later.statusCode).toBe(200);
  });

  it('shows a signup’s activation mail as a job that names the account, never its link', async () => {
    const password = 'Quiet-Harbour-58';
    const signup = await t.app.inject({
      method: 'POST',
      url: API.signup,
      payload: { email: 'new@example.com', password, re_password: password, accept_terms: true },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    await t.ctx.jobs.settled();
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/jobs/?status=done', headers: staff.headers });
    const [job] = list.json().results;
    expect(job).toMatchObject({ kind: 'mail.activation', status: 'done', payload: { userId: signup.json().id } });
  });
});
