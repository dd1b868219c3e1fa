import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { FILE_POOL_THREADS } from './password-hashing-share';

// argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane); argon2id is the
// library's default algorithm (its Algorithm enum is const, so it cannot be named here).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashing runs on libuv's thread pool (the library's asynchronous calls), at most `size` at once: never
 * on the event loop, and not on a thread of its own (a Node environment of about 21 MB, most of which a
 * process keeps after the thread ends) (docs/decisions/001-workers-share-state-through-the-primary.md).
 */
export class PasswordHashing {
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(private size: number) {}

  /** Hashes and checks under way. */
  get running(): number {
    return this.active;
  }

  resize(size: number) {
    this.size = Math.max(1, size);
    while (this.waiting.length > 0 && this.active < this.size) {
      this.active++;
      this.waiting.shift()!();
    }
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.size) this.active++;
    // Otherwise release() hands this call a place it keeps counted.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private release() {
    const next = this.active <= this.size ? this.waiting.shift() : undefined;
    if (next) next();
    else this.active--;
  }
}

const hashing = new PasswordHashing(Math.min(availableParallelism(), FILE_POOL_THREADS - 1));

/** A cluster worker hashes its share of the cores at once (its thread pool is sized for them). */
export const setPasswordHashing = (count: number) => hashing.resize(count);

/** The niceness of the pool's threads once a password has been hashed here. */
export const HASHING_NICENESS = 10;

let poolLowered = false;

/**
 * Lowers the CPU priority of libuv's pool threads (all of them exist once a job was queued; Linux names
 * them): at the event loops' priority, a login storm's hashes delayed them up to 32 ms in bench:api, at
 * nice 10 up to 16 ms, as when hashing had threads of its own at nice 10. Not the lowest (19): beside busy
 * processes such a thread gets about 1 % of a core, and a sign-up waits seconds. The pool's file reads and
 * writes are lowered with it; they take microseconds of CPU each. Elsewhere (no /proc) nothing changes.
 */
function lowerPoolPriority<T>(queued: Promise<T>): Promise<T> {
  if (poolLowered) return queued;
  poolLowered = true;
  try {
    for (const thread of readdirSync('/proc/self/task'))
      if (readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim() === 'libuv-worker')
        setPriority(Number(thread), HASHING_NICENESS);
  } catch {
    // Not Linux: the pool keeps the process's priority.
  }
  return queued;
}

export const hashPassword = (password: string) => hashing.run(() => lowerPoolPriority(hash(password, OPTIONS)));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => lowerPoolPriority(verify(passwordHash, password)));
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
