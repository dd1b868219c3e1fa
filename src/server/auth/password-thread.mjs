// A thread that hashes and checks passwords (argon2id, seconds of CPU a minute under a login storm) at a
// lower CPU priority: on a busy machine the event loops that answer requests run first. Not the lowest
// (19): beside busy processes a nice-19 thread gets about 1 % of a core, and a sign-up or login then
// waits many seconds; at 10 it gets about a tenth of a core against each one, so a hash still ends
// within a fraction of a second (docs/decisions/001-workers-share-state-through-the-primary.md).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

const PASSWORD_THREAD_NICENESS = 10;

// On Linux, pid 0 names the calling thread: only this one is lowered.
setPriority(0, PASSWORD_THREAD_NICENESS);

parentPort.on('message', ({ op, password, passwordHash, options }) => {
  try {
    parentPort.postMessage({
      result: op === 'hash' ? hashSync(password, options) : verifySync(passwordHash, password),
    });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
