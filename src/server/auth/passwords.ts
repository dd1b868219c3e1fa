import { readdirSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { availableParallelism, setPriority } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane); argon2id is the
// library's default algorithm (its Algorithm enum is const, so it cannot be named here).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The threads that hash run at this niceness: on a busy machine the event loops that answer requests
 * run first. Not the lowest (19): beside busy processes a nice-19 thread gets about 1 % of a core, and a
 * sign-up or login then waits many seconds; at 10 it gets about a tenth of a core against each one.
 */
export const HASHING_NICENESS = 10;

/** libuv's threads ("libuv-worker" since Node 22) of this process, by thread id. */
export function threadPoolIds(): number[] {
  try {
    return readdirSync('/proc/self/task')
      .filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'libuv-worker')
      .map(Number);
  } catch {
    return []; // not Linux: hashing keeps the pool's priority
  }
}

let poolLowered: Promise<void> | undefined;

/**
 * Lowers libuv's thread pool, where @node-rs/argon2 hashes, to HASHING_NICENESS, once. The pool starts
 * all its threads with its first task; an `access` is one. The pool's other work (file reads, log
 * writes, DNS) is never urgent against an event loop either.
 */
function lowerThreadPool(): Promise<void> {
  poolLowered ??= access(import.meta.dirname).then(() => {
    // On Linux, a thread id names that thread alone.
    for (const tid of threadPoolIds()) setPriority(tid, HASHING_NICENESS);
  });
  return poolLowered;
}

/**
 * At most `limit` hashes at once, each on a thread of libuv's pool: this process's share of the cores,
 * so a login storm uses every core; and two of the pool's threads always left to the files and logs
 * (docs/decisions/001-workers-share-state-through-the-primary.md). A worker thread of its own per hash
 * cost each process a second Node environment, about 23 MB resident.
 */
export class HashingSlots {
  private limit = 1;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.resize(limit);
  }

  /** `poolSize`: libuv's (UV_THREADPOOL_SIZE, read when the pool starts; 4 by default). */
  resize(limit: number, poolSize = 4) {
    this.limit = Math.max(1, Math.min(limit, poolSize - 2));
    while (this.running < this.limit && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    // A slot given up is handed to the first waiting, still counted as running.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      await lowerThreadPool();
      return await work();
    } finally {
      const next = this.running <= this.limit ? this.waiting.shift() : undefined;
      if (next) next();
      else this.running--;
    }
  }
}

const slots = new HashingSlots(availableParallelism());

/** Cluster workers share the cores: each hashes on its share of them. */
export const hashingShare = (workers: number) => Math.ceil(availableParallelism() / workers);
export const setHashingSlots = (count: number, poolSize: number | undefined) => slots.resize(count, poolSize);
/** The pool a worker needs for its share of hashes and two more threads (UV_THREADPOOL_SIZE; 4 at least). */
export const threadPoolFor = (share: number) => Math.max(4, share + 2);

export const hashPassword = (password: string) => slots.run(() => hash(password, OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await slots.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification on nothing, so an unknown e-mail takes as long to refuse
 * as a wrong password (no account enumeration by timing).
 */
export async function verifyDummyPassword(password: string): Promise<void> {
  dummyHash ??= hashPassword('innerwave-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
