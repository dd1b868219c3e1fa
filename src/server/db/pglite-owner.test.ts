import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { CallHandler, PrimaryChannel } from '../cluster/ipc';
import { RemoteError } from '../cluster/ipc';
import { createTestDatabase } from '../test/database';
import { fromPrimary, type Database } from './client';
import { pgliteCallHandlers } from './pglite-owner';
import { messageCategories } from './schema';

// The embedded database as workers reach it: Drizzle in a "worker" on one side, the owner's handlers
// on the other, joined here without processes (each call's parameters and answer cloned, as IPC does).

interface FakeWorker {
  id: number;
  dead: boolean;
  isDead(): boolean;
}

function channelTo(handlers: Record<string, CallHandler>, worker: FakeWorker): PrimaryChannel {
  let pending = 0;
  return {
    async call<T>(method: string, params: unknown) {
      pending++;
      try {
        return structuredClone(await handlers[method]!(structuredClone(params) as never, worker as never)) as T;
      } catch (error) {
        const { message, code } = error as { message: string; code?: unknown };
        throw new RemoteError({ name: 'Error', message, code });
      } finally {
        pending--;
      }
    },
    onNotice: () => undefined,
    pending: () => pending,
  };
}

describe.runIf(inject('dbKind') === 'pglite')('the embedded database through the primary', () => {
  let owner: Database;
  let owned: ReturnType<typeof pgliteCallHandlers>;
  const workers = [1, 2].map((id): FakeWorker => ({
    id,
    dead: false,
    isDead() {
      return this.dead;
    },
  }));
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    owner = await createTestDatabase();
    owned = pgliteCallHandlers(owner.pglite!, 300);
    one = fromPrimary(channelTo(owned.handlers, workers[0]!));
    two = fromPrimary(channelTo(owned.handlers, workers[1]!));
  });
  afterAll(() => owner.close());

  const names = async () =>
    (await owner.db.select({ name: messageCategories.name }).from(messageCategories)).map((row) => row.name).sort();

  it('reads and writes with Drizzle as on any database, dates and counts included', async () => {
    const [row] = await one.db.insert(messageCategories).values({ name: 'Rest', position: 1 }).returning();
    expect(row).toMatchObject({ name: 'Rest', position: 1 });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(await two.db.$count(messageCategories)).toBe(1);
    await one.ping();
  });

  it('commits a transaction, rolls back a failed one, and keeps another worker out while one is open', async () => {
    await one.db.transaction(async (tx) => {
      await tx.insert(messageCategories).values({ name: 'Focus', position: 2 });
    });
    await expect(
      one.db.transaction(async (tx) => {
        await tx.insert(messageCategories).values({ name: 'Never', position: 3 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await names()).toEqual(['Focus', 'Rest']);

    // While worker one holds a transaction, worker two's write waits, and never lands inside it.
    let releaseFirst = () => undefined as void;
    const holding = one.db.transaction(async (tx) => {
      await tx.update(messageCategories).set({ name: 'Calm' }).where(eq(messageCategories.name, 'Rest'));
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      throw new Error('roll back');
    });
    const order: string[] = [];
    const waiting = two.db
      .insert(messageCategories)
      .values({ name: 'Later', position: 4 })
      .then(() => order.push('two'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('one done');
    releaseFirst();
    await expect(holding).rejects.toThrow('roll back');
    await waiting;
    expect(order).toEqual(['one done', 'two']);
    expect(await names()).toEqual(['Focus', 'Later', 'Rest']);
  });

  it('passes database errors on with their code (a unique violation stays one)', async () => {
    await owner.db.execute(sql`create unique index if not exists probe_unique_name on message_categories (name)`);
    const duplicate = one.db.insert(messageCategories).values({ name: 'Focus', position: 9 });
    await expect(duplicate).rejects.toMatchObject({ cause: { code: '23505' } });
    await owner.db.execute(sql`drop index probe_unique_name`);
  });

  it('rolls back a transaction whose worker dies or goes quiet, so the database is free again', async () => {
    const stuck = one.db.transaction(async (tx) => {
      await tx.insert(messageCategories).values({ name: 'Orphan', position: 5 });
      await new Promise((resolve) => setTimeout(resolve, 600));
      await tx.insert(messageCategories).values({ name: 'Too late', position: 6 });
    });
    // Past the idle limit (300 ms here) the owner rolls it back; the worker's next statement is refused.
    await expect(stuck).rejects.toBeDefined();
    await two.db.insert(messageCategories).values({ name: 'Free', position: 7 });
    expect(await names()).not.toContain('Orphan');

    let hold = () => undefined as void;
    const dying = one.db.transaction(async (tx) => {
      await tx.insert(messageCategories).values({ name: 'Ghost', position: 8 });
      await new Promise<void>((resolve) => (hold = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    workers[0]!.dead = true;
    owned.releaseWorker(1);
    await two.db.insert(messageCategories).values({ name: 'After', position: 10 });
    expect(await names()).toContain('After');
    expect(await names()).not.toContain('Ghost');
    hold();
    await dying.catch(() => undefined);
  });

  it('is quiet only with no call in flight, no transaction open, and none for a quarter of a second', async () => {
    // An owner whose transactions may think longer than its quiet time.
    const patient = pgliteCallHandlers(owner.pglite!);
    const three = fromPrimary(channelTo(patient.handlers, { id: 3, dead: false, isDead: () => false }));
    const quietAgain = () => vi.waitFor(() => expect(patient.isQuiet()).toBe(true), { timeout: 5000, interval: 20 });
    await quietAgain();
    await three.db.$count(messageCategories);
    // Just answered: a request's next call follows within milliseconds.
    expect(patient.isQuiet()).toBe(false);
    await quietAgain();

    let release = () => undefined as void;
    let begun = () => undefined as void;
    const hasBegun = new Promise<void>((resolve) => (begun = resolve));
    const holding = three.db.transaction(async (tx) => {
      await tx.select().from(messageCategories).limit(1);
      begun();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await hasBegun;
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Its worker thinks between its statements: the transaction holds the database all the same.
    expect(patient.isQuiet()).toBe(false);
    release();
    await holding;
    await quietAgain();
  });
});
