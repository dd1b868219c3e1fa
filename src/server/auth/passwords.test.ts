import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { HASHING_NICENESS, HashingSlots, hashPassword, threadPoolIds, verifyPassword } from './passwords';

/** A task that runs until it is let go, and tells when it started. */
function heldTask() {
  let release!: () => void;
  let started = false;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    work: async () => {
      started = true;
      await done;
      return 'done';
    },
    release: () => release(),
    started: () => started,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('Quiet-Harbour-58');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Quiet-Harbour-58')).toBe(true);
    expect(await verifyPassword(hash, 'Quiet-Harbour-59')).toBe(false);
    expect(await verifyPassword('not a hash', 'Quiet-Harbour-58')).toBe(false);
  });

  it("hashes on libuv's threads at a lower priority, never the event loop's", async () => {
    await hashPassword('Quiet-Harbour-58');
    const pool = threadPoolIds();
    // Node names its pool's threads from version 22; the project runs on 24 (decision 037).
    if (Number(process.versions.node.split('.')[0]) >= 22) expect(pool.length).toBeGreaterThan(0);
    for (const tid of pool) expect(getPriority(tid)).toBe(HASHING_NICENESS);
    expect(getPriority(process.pid)).toBeLessThan(HASHING_NICENESS);
  });

  it('runs at most as many hashes at once as it has slots, in order, and takes more when resized', async () => {
    const slots = new HashingSlots(1);
    const tasks = [heldTask(), heldTask(), heldTask()];
    const results = tasks.map((task) => slots.run(task.work));
    await settle();
    expect(tasks.map((task) => task.started())).toEqual([true, false, false]);
    tasks[0]!.release();
    await settle();
    expect(tasks.map((task) => task.started())).toEqual([true, true, false]);
    slots.resize(2);
    await settle();
    expect(tasks.map((task) => task.started())).toEqual([true, true, true]);
    tasks[1]!.release();
    tasks[2]!.release();
    expect(await Promise.all(results)).toEqual(['done', 'done', 'done']);
  });

  it('leaves two of the thread pool to files and logs, and takes one slot at least', async () => {
    const slots = new HashingSlots(8);
    slots.resize(8, 4);
    const tasks = [heldTask(), heldTask(), heldTask()];
    const results = tasks.map((task) => slots.run(task.work));
    await settle();
    expect(tasks.map((task) => task.started())).toEqual([true, true, false]);
    slots.resize(8, 2);
    tasks[0]!.release();
    tasks[1]!.release();
    await settle();
    expect(tasks[2]!.started()).toBe(true);
    tasks[2]!.release();
    await Promise.all(results);
  });

  it('gives a slot back when a hash fails', async () => {
    const slots = new HashingSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
