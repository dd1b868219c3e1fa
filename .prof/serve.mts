// Profiling harness (not committed): one process, PGlite in-process, the bench's content.
import { createContext } from '../src/server/context';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';
import { loadConfig } from '../src/server/config';
import { signedInUser } from '../src/server/test/fixtures';
import { messageCategories, messages } from '../src/server/db/schema';
import { writeFileSync } from 'node:fs';
const config = loadConfig({ DATA_DIR: '/tmp/prof-data', PORT: '3999', NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(40), LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' });
const database = await openDatabase({ dataDir: config.dataDir });
await migrateDatabase(database);
const ctx = createContext(config, database);
const app = await buildApp(ctx, {});
const user = await signedInUser(ctx);
for (let c = 0; c < 10; c++) {
  const [row] = await database.db.insert(messageCategories).values({ name: `C${c}`, position: c }).returning();
  await database.db.insert(messages).values(Array.from({ length: 50 }, (_, m) => ({ categoryId: row!.id, messageText: `I take one calm, steady breath and let message ${m + 1} of category ${c + 1} settle in.`, position: m })));
}
writeFileSync('/tmp/prof-tokens.json', JSON.stringify({ access: user.access, refresh: user.refresh }));
await app.listen({ port: 3999 });
console.error('ready', process.memoryUsage().rss / 1e6);
process.on('SIGINT', async () => { await app.close(); process.exit(0); });
