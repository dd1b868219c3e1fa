import { eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API, adminPath, type AdminProgramWrite } from '@shared/contract';
import { programs } from '../db/schema';
import { createProgram } from '../guidance/programs';
import { waitingOnLocks } from '../test/database';
import { signedInUser } from '../test/fixtures';
import { createTestApp, type TestApp } from '../test/test-app';

// Staff give a program a slug another program takes at the same moment, added or renamed in another tab
// (docs/product/api.md#programs): 400, the slug taken, and the program stays as it was. On PostgreSQL the change has
// found the slug free and waits on the other's row in the slug's index, so it would break the index (a 500) but for
// the index's refusal being answered (replaceProgram); PGlite runs one transaction at a time, so there the other
// program is in before the change looks.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const program = (slug: string): AdminProgramWrite => ({
  slug,
  title: 'Evening Pause',
  summary: 'Three short evenings.',
  goals: ['calm'],
  days: [1, 2].map((n) => ({
    title: `Evening ${n}`,
    intro: 'Sit comfortably.',
    minutes: 5,
    messages: ['I slow down.'],
    layers: [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
  })),
});

describe('a program renamed to a slug taken at the same moment', () => {
  it('answers 400 (the slug is taken) and stays as it was', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const { updated_at } = await createProgram(t.database.db, program('quiet-mornings'));
    let renamed: Promise<LightMyRequestResponse> | undefined;
    await t.database.db.transaction(async (tx) => {
      // Another tab's program takes the slug, not yet committed, while the rename is on its way.
      await tx.insert(programs).values({ slug: 'quiet-evenings', title: 'Quiet Evenings', summary: 'Other.' });
      // inject() sends the request once awaited; then() sends it now.
      renamed = t.app
        .inject({
          method: 'PUT',
          url: adminPath(ADMIN_API.program, { slug: 'quiet-mornings' }),
          headers: staff.headers,
          payload: { ...program('quiet-evenings'), updated_at },
        })
        .then((response) => response);
      if (t.database.kind === 'postgres') await waitingOnLocks(t.database);
    });
    const answer = await renamed!;
    expect([answer.statusCode, answer.json()]).toEqual([400, { slug: ['A program with this slug already exists.'] }]);
    expect(
      await t.database.db.select({ title: programs.title }).from(programs).where(eq(programs.slug, 'quiet-mornings')),
    ).toEqual([{ title: 'Evening Pause' }]);
  });
});
