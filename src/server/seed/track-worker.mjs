// Entry of the process that builds a seed track: TypeScript loader first (the process is started
// without the parent's flags), then the builder itself.
import { register } from 'tsx/esm/api';

register();
await import('./track-worker.ts');
