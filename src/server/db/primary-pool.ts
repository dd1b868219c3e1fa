import type { PrimaryChannel } from '../cluster/ipc';
import type { QueryParams, QueryResultData } from './pglite-owner';

// A worker's way to the embedded database, which the primary owns (pglite-owner.ts): Drizzle's
// node-postgres driver over this pool look-alike (it recognises a pool by its class name), so a worker
// loads neither PGlite nor its driver.

interface QueryConfig {
  text: string;
  rowMode?: 'array';
}

const query = (primary: PrimaryChannel, config: QueryConfig, values: unknown[] | undefined, tx?: number) =>
  primary.call<QueryResultData>('db.query', {
    sql: config.text,
    params: values,
    rowMode: config.rowMode ?? 'object',
    tx,
  } satisfies QueryParams);

const NOTHING: QueryResultData = { rows: [], rowCount: 0, fields: [] };

/**
 * A transaction's connection: the primary holds the database for it from `connect()` on (its BEGIN is
 * already sent), and the driver's own BEGIN, COMMIT and ROLLBACK become that hold's start and end.
 */
class PrimaryConnection {
  private ended = false;

  constructor(
    private readonly primary: PrimaryChannel,
    private readonly tx: number,
  ) {}

  async query(config: QueryConfig, values?: unknown[]): Promise<QueryResultData> {
    const statement = config.text.trim().toLowerCase();
    if (statement.startsWith('begin')) return NOTHING;
    if (statement === 'commit' || statement === 'rollback') {
      await this.end(statement === 'commit');
      return NOTHING;
    }
    return query(this.primary, config, values, this.tx);
  }

  release(): void {
    if (!this.ended) void this.end(false).catch(() => undefined);
  }

  private end(commit: boolean) {
    this.ended = true;
    return this.primary.call<void>('db.end', { tx: this.tx, commit });
  }
}

export class PrimaryPool {
  constructor(private readonly primary: PrimaryChannel) {}

  query(config: QueryConfig, values?: unknown[]): Promise<QueryResultData> {
    return query(this.primary, config, values);
  }

  async connect(): Promise<PrimaryConnection> {
    return new PrimaryConnection(this.primary, await this.primary.call<number>('db.begin', null));
  }
}
