import cluster from 'node:cluster';

// Stack traces name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
import { buildServer, buildWeb, SERVER_ENTRY } from './build-state.mjs';

// `npm start`: build the SPA and the server if they are missing or stale, then run the server in this
// process (so SIGTERM and SIGINT reach it directly). Its workers run this script again, and skip the builds.
if (cluster.isPrimary) {
  buildWeb();
  await buildServer();
}
await import(SERVER_ENTRY);
