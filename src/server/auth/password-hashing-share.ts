import { availableParallelism } from 'node:os';

// Apart from passwords.ts, so the primary, which forks the workers, does not load argon2's native code.

/**
 * libuv's thread pool runs a process's file reads and writes; by default it has four threads. A worker
 * process gets these four plus one per password it may hash at once (primary.ts), so hashing never
 * keeps a file waiting; a process on its own (tests, the admin CLI) hashes at most one fewer than four.
 */
export const FILE_POOL_THREADS = 4;

/** A worker's share of the cores, the passwords it hashes at once: a login storm uses every core. */
export const passwordHashingShare = (workers: number) => Math.ceil(availableParallelism() / workers);
