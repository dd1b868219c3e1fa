import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRenderers } from '../../../build/vite-plugins';
import { sharedSettings } from '../../../vite.config';

/**
 * The web build's server renderers (what the build writes to dist/render), built into a temporary
 * folder: the server loads them from there as it loads the built files, by path. Some seconds.
 */
export async function buildTestRenderers(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-render-'));
  await buildRenderers(sharedSettings(), dir);
  return dir;
}
