import { availableParallelism } from 'node:os';
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

export const hashPassword = (password: string) => hashing.run(() => hash(password, OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(passwordHash, password));
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
