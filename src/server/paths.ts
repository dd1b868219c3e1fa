import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/web');
/** The web build's server renderers (the share page's), never served. */
export const RENDER_DIST_DIR = path.join(PROJECT_ROOT, 'dist/render');

export const mediaDir = (dataDir: string) => path.join(dataDir, 'media');
export const outboxDir = (dataDir: string) => path.join(dataDir, 'outbox');
