import { buildServer, buildWeb } from './build-state.mjs';

// `npm run build`: the web app and the server as `npm start` runs them, each stamped as built, so that a start
// after it builds nothing again (a bare `vite build` left no stamp, and the next start built the app anew).
buildWeb({ force: true });
await buildServer({ force: true });
