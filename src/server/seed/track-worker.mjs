// Worker entry: TypeScript loader first (workers do not inherit it), then the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./track-worker.ts');
