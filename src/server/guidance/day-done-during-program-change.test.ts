import { and, eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fillPath } from '@shared/contract';
import { programDays, programProgress, programs } from '../db/schema';
import type { Tx } from '../billing/service';
import { waitingOnLocks } from '../test/database';
import { signedInUser } from '../test/fixtures';
import { createTestApp, type TestApp } from '../test/test-app';
import { createProgram } from './programs';

// A person marks a day done while staff delete its program or replace its days (docs/product/api.md#guidance):
// what staff left decides, 404 for a program or a day gone, and no mark is written for either. On PostgreSQL the
// mark has read the program and its days and waits on the rows staff hold, so it would write for a program gone (a
// foreign-key violation, a 500) or a day gone but for its own hold of the program (completeDay); PGlite runs one
// transaction at a time, so there staff's change lands before the mark's read.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let programsMade = 0;
/** A program of three days of its own. */
async function threeDays(): Promise<string> {
  const slug = `three-evenings-${(programsMade += 1)}`;
  await createProgram(t.database.db, {
    slug,
    title: 'Three Evenings',
    summary: 'Three short evenings.',
    goals: ['calm'],
    days: [1, 2, 3].map((n) => ({
      title: `Evening ${n}`,
      intro: 'Sit comfortably.',
      minutes: 5,
      messages: ['I slow down.'],
      layers: [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
    })),
  });
  return slug;
}

const idOf = async (slug: string) =>
  (await t.database.db.select({ id: programs.id }).from(programs).where(eq(programs.slug, slug)))[0]!.id;

describe('a day marked done while staff change its program', () => {
  it.each<[string, (tx: Tx, programId: number) => Promise<unknown>]>([
    ['deleting the program', (tx, programId) => tx.delete(programs).where(eq(programs.id, programId))],
    [
      'replacing its days with two (the day marked is gone)',
      async (tx, programId) => {
        await tx.delete(programDays).where(and(eq(programDays.programId, programId), eq(programDays.day, 3)));
        await tx.update(programs).set({ updatedAt: new Date() }).where(eq(programs.id, programId));
      },
    ],
  ])('answers 404 and marks nothing: %s', async (_what, change) => {
    const member = await signedInUser(t.ctx);
    const slug = await threeDays();
    const programId = await idOf(slug);
    let marked: Promise<LightMyRequestResponse> | undefined;
    await t.database.db.transaction(async (tx) => {
      // Staff hold the program's row, as a replacement does, and a deletion takes it, while the mark is on its way.
      await tx.select().from(programs).where(eq(programs.id, programId)).for('update');
      // inject() sends the request once awaited; then() sends it now.
      marked = t.app
        .inject({
          method: 'POST',
          url: fillPath(API.programDayComplete, { slug, day: 3 }),
          headers: member.headers,
        })
        .then((response) => response);
      if (t.database.kind === 'postgres') await waitingOnLocks(t.database);
      await change(tx, programId);
    });
    const answer = await marked!;
    expect([answer.statusCode, answer.json()]).toEqual([404, { detail: 'Not found.' }]);
    expect(await t.database.db.select().from(programProgress).where(eq(programProgress.userId, member.id))).toEqual([]);
  });
});
