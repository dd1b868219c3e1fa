import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A maker of temporary folders (`iw-<name>-…`) for the test file that calls this; each is removed after its tests. */
export function tempDirsOfFile(): (name: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (name) => {
    const dir = mkdtempSync(path.join(tmpdir(), `iw-${name}-`));
    dirs.push(dir);
    return dir;
  };
}
