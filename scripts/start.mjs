import { register } from 'tsx/esm/api';
import { buildWeb } from './build-state.mjs';

// `npm start`: build the SPA if it is missing or stale, then run the server in this process
// (so SIGTERM and SIGINT reach it directly).
buildWeb();
register();
await import('../src/server/server.ts');
