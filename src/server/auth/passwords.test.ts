import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PasswordThreads } from './passwords';

const until = async (check: () => boolean, ms = 5000) => {
  for (const started = Date.now(); !check() && Date.now() - started < ms;) await sleep(20);
};

// Each hashing thread is a Node environment of its own (about 21 MB): a process at rest keeps none.
describe('password threads', () => {
  it('end after a quiet time, and the next password starts one again', async () => {
    const threads = new PasswordThreads(1, 200);
    expect(threads.running).toBe(0);
    const passwordHash = (await threads.run({ op: 'hash', password: 'a calm, steady breath' })) as string;
    expect(threads.running).toBe(1);
    await until(() => threads.running === 0);
    expect(threads.running).toBe(0);
    expect(await threads.run({ op: 'verify', password: 'a calm, steady breath', passwordHash })).toBe(true);
    expect(threads.running).toBe(1);
  });

  it('keep a thread that gets work again before its quiet time is up', async () => {
    const threads = new PasswordThreads(1, 600);
    const passwordHash = (await threads.run({ op: 'hash', password: 'a calm, steady breath' })) as string;
    await sleep(400);
    expect(await threads.run({ op: 'verify', password: 'another breath', passwordHash })).toBe(false);
    // 800 ms after the first answer, 400 after the second: the second one's quiet time counts.
    await sleep(400);
    expect(threads.running).toBe(1);
    await until(() => threads.running === 0);
    expect(threads.running).toBe(0);
  });
});
