import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

// argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane); argon2id is the
// library's default algorithm (its Algorithm enum is const, so it cannot be named here).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

type Task = { op: 'hash'; password: string } | { op: 'verify'; password: string; passwordHash: string };
interface Queued {
  task: Task;
  resolve: (result: string | boolean) => void;
  reject: (error: Error) => void;
}

/**
 * A thread with nothing to hash for this long ends: each is a Node environment of about 21 MB, and a new
 * one costs the next password tens of milliseconds more (hundreds on a busy machine), so not sooner.
 */
const PASSWORD_THREAD_IDLE_MS = 5 * 60_000;

/**
 * Hashing runs on a few threads of lower priority (nice 10, password-thread.mjs): as many as the cores this
 * process may use, so a login storm uses every core yet never delays the event loop; started at the first
 * password, ended after five quiet minutes (docs/decisions/001-workers-share-state-through-the-primary.md).
 */
export class PasswordThreads {
  private readonly idle: Worker[] = [];
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();
  private readonly queue: Queued[] = [];
  private threads = 0;

  constructor(
    private size: number,
    private readonly idleMs = PASSWORD_THREAD_IDLE_MS,
  ) {}

  /** Threads started and not ended. */
  get running(): number {
    return this.threads;
  }

  resize(size: number) {
    this.size = Math.max(1, size);
  }

  run(task: Task): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch() {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.threads < this.size ? this.spawn() : undefined);
      if (!worker) return;
      this.forgetIdle(worker);
      const job = this.queue.shift()!;
      // A busy thread keeps the process alive (a CLI awaiting a hash); an idle one does not.
      worker.ref();
      const settle = (message: { result?: string | boolean; error?: string }) => {
        worker.off('error', fail);
        worker.unref();
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.result!);
        this.idle.push(worker);
        this.idleTimers.set(worker, setTimeout(() => this.retire(worker), this.idleMs).unref());
        this.dispatch();
      };
      const fail = (error: Error) => {
        worker.off('message', settle);
        job.reject(error);
      };
      worker.once('message', settle);
      worker.once('error', fail);
      worker.postMessage({ ...job.task, options: OPTIONS });
    }
  }

  /** Takes a thread off the idle list and stops its quiet-time count; whether it was idle. */
  private forgetIdle(worker: Worker): boolean {
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    return index >= 0;
  }

  /** Ends an idle thread; taken off the idle list first, so no job is handed to a thread that is ending. */
  private retire(worker: Worker) {
    if (this.forgetIdle(worker)) void worker.terminate();
  }

  private spawn(): Worker {
    this.threads++;
    const worker = new Worker(new URL('./password-thread.mjs', import.meta.url));
    worker.unref();
    worker.once('exit', () => {
      this.threads--;
      this.forgetIdle(worker);
      this.dispatch();
    });
    return worker;
  }
}

const threads = new PasswordThreads(availableParallelism());

/** Cluster workers share the cores: each hashes on its share of them. */
export const setPasswordThreads = (count: number) => threads.resize(count);

export const hashPassword = async (password: string) => (await threads.run({ op: 'hash', password })) as string;

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return (await threads.run({ op: 'verify', password, passwordHash })) === true;
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
