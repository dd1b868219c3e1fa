// A thread that hashes and checks passwords (argon2id, seconds of CPU a minute under a login storm) at
// the lowest CPU priority: on a busy machine the event loops that answer requests always run first.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

// On Linux, pid 0 names the calling thread: only this one is lowered.
setPriority(0, 19);

parentPort.on('message', ({ op, password, passwordHash, options }) => {
  try {
    parentPort.postMessage({
      result: op === 'hash' ? hashSync(password, options) : verifySync(passwordHash, password),
    });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
