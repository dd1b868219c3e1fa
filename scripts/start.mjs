import cluster from 'node:cluster';

// Stack traces name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
import { buildServer, buildWeb, SERVER_ENTRY } from './build-state.mjs';

// `npm start`: build the SPA and the server if they are missing or stale, then run the server in this
// process (so SIGTERM and SIGINT reach it directly). Its workers run this script again, and skip the builds,
// as does a server the e2e run starts (INNERWAVE_BUILT=1): that run built once before any server, and a
// source edited meanwhile rebuilt the app here, past the time the run gave its server to start (decision 097).
if (cluster.isPrimary && process.env.INNERWAVE_BUILT !== '1') {
  buildWeb();
  await buildServer();
}
await import(SERVER_ENTRY);
