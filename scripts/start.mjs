import cluster from 'node:cluster';
import { register } from 'tsx/esm/api';
import { buildWeb } from './build-state.mjs';

// `npm start`: build the SPA if it is missing or stale, then run the server in this process
// (so SIGTERM and SIGINT reach it directly). Its workers run this script again, and skip the build.
if (cluster.isPrimary) buildWeb();
register();
await import('../src/server/server.ts');
