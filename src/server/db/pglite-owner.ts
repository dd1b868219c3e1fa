import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { CallHandler } from '../cluster/ipc';

// PGlite is one database in one process: the primary owns it, and the workers query it through
// these calls (their side: primary-pool.ts). A transaction holds PGlite for its worker (PGlite's own query lock makes every other
// query wait), as a connection would; the worker that opened it ends it, or its death does.

export interface QueryParams {
  sql: string;
  params: unknown[] | undefined;
  rowMode: 'array' | 'object' | undefined;
  tx?: number | undefined;
}
export interface QueryResultData {
  rows: unknown[];
  rowCount: number;
  fields: Array<{ name: string; dataTypeID: number }>;
}

/** A transaction that sees no query for this long is rolled back: its worker is stuck, and PGlite with it. */
const TRANSACTION_IDLE_LIMIT_MS = 30_000;
/**
 * The database is quiet when no worker's call has been in flight for this long: a request's calls follow each
 * other within milliseconds, so an analysis started then rarely lands in the middle of one (statistics.ts).
 */
const QUIET_AFTER_MS = 250;

interface Worker {
  id: number;
  isDead(): boolean;
}

class TransactionEnded extends Error {
  readonly code = '25P01';
  constructor() {
    super('The transaction was rolled back: it stayed idle too long, or its worker is gone.');
  }
}
const ROLLBACK = Symbol('rollback');

/** The primary's handlers for workers' database calls. */
export function pgliteCallHandlers(
  client: PGlite,
  idleLimitMs = TRANSACTION_IDLE_LIMIT_MS,
): {
  handlers: Record<string, CallHandler>;
  releaseWorker(workerId: number): void;
  /** No worker's call in flight, no transaction open, and none for a moment: the time to analyse a table. */
  isQuiet(): boolean;
} {
  interface Open {
    workerId: number;
    tx: Transaction;
    finish(commit: boolean): void;
    done: Promise<void>;
    idle: NodeJS.Timeout;
  }
  const open = new Map<number, Open>();
  let nextTransaction = 1;

  const end = (id: number, commit: boolean) => {
    const entry = open.get(id);
    // A transaction already rolled back (idle too long) is rolled back; it cannot be committed.
    if (!entry) return commit ? Promise.reject(new TransactionEnded()) : Promise.resolve();
    open.delete(id);
    clearTimeout(entry.idle);
    entry.finish(commit);
    return entry.done;
  };

  const begin = (_params: unknown, worker: Worker) =>
    new Promise<number>((resolveBegin, rejectBegin) => {
      let id: number | undefined;
      const done = client
        .transaction(async (tx) => {
          id = nextTransaction++;
          const ended = new Promise<boolean>((finish) => {
            open.set(id!, {
              workerId: worker.id,
              tx,
              finish,
              done,
              idle: setTimeout(() => void end(id!, false).catch(() => undefined), idleLimitMs),
            });
          });
          // Its worker died while it waited for its turn: nobody will end it.
          if (worker.isDead()) void end(id, false);
          resolveBegin(id);
          if (!(await ended)) throw ROLLBACK;
        })
        .catch((error: unknown) => {
          if (error === ROLLBACK) return;
          if (id === undefined) rejectBegin(error);
          throw error;
        });
      // The worker hears of a failed COMMIT through `end`; nobody else needs to.
      done.catch(() => undefined);
    });

  const query = async ({ sql, params, rowMode, tx }: QueryParams): Promise<QueryResultData> => {
    let target: PGlite | Transaction = client;
    if (tx !== undefined) {
      const entry = open.get(tx);
      if (!entry) throw new TransactionEnded();
      entry.idle.refresh();
      target = entry.tx;
    }
    // The instance reads types as Drizzle does (createPglite), as the workers' Drizzle expects.
    const result = await target.query(sql, params, { rowMode: rowMode ?? 'object' });
    return {
      rows: result.rows,
      rowCount: result.affectedRows ?? result.rows.length,
      fields: result.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })),
    };
  };

  let inFlight = 0;
  let lastCallEndedAt = 0;
  const counted =
    <P, R>(handler: (params: P, worker: Worker) => Promise<R>) =>
    async (params: P, worker: Worker) => {
      inFlight++;
      try {
        return await handler(params, worker);
      } finally {
        inFlight--;
        lastCallEndedAt = performance.now();
      }
    };

  return {
    handlers: {
      'db.query': counted(query) as CallHandler,
      'db.begin': counted(begin) as CallHandler,
      'db.end': counted(({ tx, commit }: { tx: number; commit: boolean }) => end(tx, commit)) as CallHandler,
      'db.ping': counted(async () => void (await client.query('select 1'))) as CallHandler,
    },
    releaseWorker(workerId) {
      for (const [id, entry] of open) if (entry.workerId === workerId) void end(id, false).catch(() => undefined);
    },
    isQuiet: () => inFlight === 0 && open.size === 0 && performance.now() - lastCallEndedAt >= QUIET_AFTER_MS,
  };
}
