import { loadConfig } from './src/server/config';
import { openPostgres } from './src/server/db/client';
import { createContext } from './src/server/context';
import { buildApp } from './src/server/app';
import { WEB_DIST_DIR } from './src/server/paths';
const show = (label: string) => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  console.log(
    label,
    'rss',
    Math.round(m.rss / 1e6),
    'heapUsed',
    Math.round(m.heapUsed / 1e6),
    'heapTotal',
    Math.round(m.heapTotal / 1e6),
    'external',
    Math.round(m.external / 1e6),
    'arrayBuffers',
    Math.round(m.arrayBuffers / 1e6),
  );
};
show('start');
const config = loadConfig({
  DATA_DIR: '/tmp/memprobe',
  SECRET_KEY: 'x'.repeat(40),
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
});
const ctx = createContext(config, openPostgres(config.databaseUrl!));
show('context');
const app = await buildApp(ctx, { webDir: WEB_DIST_DIR, logger: false });
show('app built');
await app.ready();
show('ready');
const v8 = await import('node:v8');
const stats = v8
  .getHeapSpaceStatistics()
  .map((s) => `${s.space_name}:${Math.round(s.space_used_size / 1e6)}`)
  .join(' ');
console.log(stats);
process.exit(0);
