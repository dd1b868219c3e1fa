import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { createTestPostgresDatabase } from '../test/database';
import { login, warmLoginStatements } from './accounts';
import { findLiveSession } from './sessions';
import { createTokenService } from './tokens';

// A worker's fresh PostgreSQL connections are sent a login's statements before they serve
// (docs/decisions/089-fresh-connections-are-warmed-before-they-serve.md): the same statements, writing nothing.
describe.runIf(inject('dbKind') === 'postgres')('the statements that warm a fresh connection', () => {
  let pool: pg.Pool;
  let drop: () => Promise<void>;
  let sent: string[] = [];
  let db: Db;
  beforeAll(async () => {
    const database = await createTestPostgresDatabase();
    drop = database.drop;
    pool = new pg.Pool({ connectionString: database.url });
    db = drizzle({ client: pool, schema, logger: { logQuery: (query) => sent.push(query) } }) as unknown as Db;
  });
  afterAll(async () => {
    await pool.end();
    await drop();
  });

  it("are a login's and a session check's, and write nothing", async () => {
    const password = 'calm-river-morning-42';
    const [user] = await db
      .insert(schema.users)
      .values({ email: 'warm@example.com', passwordHash: await hash(password), isActive: true })
      .returning();
    const tokens = createTokenService('a-test-secret-key-that-is-long-enough-0123', { access: 300, refresh: 3600 });
    const ctx = { database: { db }, tokens } as unknown as AppContext;

    sent = [];
    const pair = await login(ctx, 'warm@example.com', password, () => Promise.resolve());
    const claims = await tokens.verify(pair.access, 'access');
    await findLiveSession(db, claims!.sessionId);
    const aLoginSends = new Set(sent);

    const [before] = await db.select().from(schema.users).where(eq(schema.users.id, user!.id));
    const sessionsBefore = await db.select().from(schema.sessions);
    sent = [];
    await warmLoginStatements(db);
    expect(new Set(sent)).toEqual(aLoginSends);
    expect(await db.select().from(schema.users).where(eq(schema.users.id, user!.id))).toEqual([before]);
    expect(await db.select().from(schema.sessions)).toEqual(sessionsBefore);
  });
});
