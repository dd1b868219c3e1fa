import { readdirSync, readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { HASHING_NICENESS, hashPassword, PasswordHashing, verifyPassword } from './passwords';

/** A piece of work that ends when the test says so. */
const heldWork = () => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
};

describe('password hashing', () => {
  it('leaves the event loop turning while a password is hashed and checked', async () => {
    let turns = 0;
    let hashing = true;
    const count = async () => {
      while (hashing) {
        await nextTurn();
        turns++;
      }
    };
    const counting = count();
    const passwordHash = await hashPassword('a calm, steady breath');
    const checked = await verifyPassword(passwordHash, 'a calm, steady breath');
    hashing = false;
    await counting;
    expect(checked).toBe(true);
    expect(await verifyPassword(passwordHash, 'another breath')).toBe(false);
    // A hash takes milliseconds of one core: done on the event loop, it would leave no turn between.
    expect(turns).toBeGreaterThan(2);
  });

  it.runIf(process.platform === 'linux')('hashes below the priority of the event loop', async () => {
    await hashPassword('a calm, steady breath');
    // /proc/<thread>/stat: the niceness is the 19th field, the 17th after the name's closing parenthesis.
    const pool = readdirSync('/proc/self/task')
      .filter((thread) => readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim() === 'libuv-worker')
      .map((thread) => Number(readFileSync(`/proc/self/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
    expect(pool.length).toBeGreaterThan(0);
    expect(pool.every((niceness) => niceness === HASHING_NICENESS)).toBe(true);
    expect(Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[16])).toBe(0);
  });

  it('runs at most its share at once, the others in the order they came', async () => {
    const hashing = new PasswordHashing(2);
    const held = [heldWork(), heldWork(), heldWork(), heldWork()];
    const ended: number[] = [];
    const runs = held.map(({ work }, index) => hashing.run(work).then(() => ended.push(index)));
    await nextTurn();
    expect(hashing.running).toBe(2);
    held[1]!.finish();
    await nextTurn();
    expect(ended).toEqual([1]);
    expect(hashing.running).toBe(2);
    held[3]!.finish();
    await nextTurn();
    // The fourth's work is done, but it has waited for a place behind the third, which has it.
    expect(ended).toEqual([1]);
    held[2]!.finish();
    await nextTurn();
    expect(ended).toEqual([1, 2, 3]);
    held[0]!.finish();
    await Promise.all(runs);
    expect(ended).toEqual([1, 2, 3, 0]);
    expect(hashing.running).toBe(0);
  });

  it('starts waiting work when its share grows, and gives places back when it shrinks', async () => {
    const hashing = new PasswordHashing(1);
    const held = [heldWork(), heldWork(), heldWork()];
    const runs = held.map(({ work }) => hashing.run(work));
    await nextTurn();
    expect(hashing.running).toBe(1);
    hashing.resize(3);
    expect(hashing.running).toBe(3);
    hashing.resize(1);
    const fourth = heldWork();
    const waiting = hashing.run(fourth.work);
    held[0]!.finish();
    held[1]!.finish();
    await nextTurn();
    // Two ended: one place fewer for each, none handed on while more than the share run.
    expect(hashing.running).toBe(1);
    held[2]!.finish();
    await nextTurn();
    expect(hashing.running).toBe(1);
    fourth.finish();
    await Promise.all([...runs, waiting]);
    expect(hashing.running).toBe(0);
  });

  it('gives its place back when the work fails', async () => {
    const hashing = new PasswordHashing(1);
    await expect(hashing.run(() => Promise.reject(new Error('no memory')))).rejects.toThrow('no memory');
    expect(hashing.running).toBe(0);
    expect(await hashing.run(() => Promise.resolve('next'))).toBe('next');
  });
});
