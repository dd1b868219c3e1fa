import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane); argon2id is the
// library's default algorithm (its Algorithm enum is const, so it cannot be named here).
// @node-rs/argon2 hashes on a worker thread, so the event loop keeps serving other requests meanwhile.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
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
