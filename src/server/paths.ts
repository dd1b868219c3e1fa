import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/web');

export const mediaDir = (dataDir: string) => path.join(dataDir, 'media');
export const outboxDir = (dataDir: string) => path.join(dataDir, 'outbox');
