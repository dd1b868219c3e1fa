import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INPUTS, inputsUnchangedSince, isNoBuildInput, ROOT, SERVER_INPUTS } from './build-state.mjs';

// `npm start`, the e2e run and the benches build when an input is newer than the last build: a test, a test
// helper or a note edited beside the sources is none, and rebuilt the whole app (decision 097).

describe('the build stamp', () => {
  let root: string;
  const BUILT_AT = Date.parse('2026-12-01T12:00:00Z');
  const write = (file: string, at: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, 'export {};\n');
    utimesSync(full, at / 1000, at / 1000);
  };
  const edited = (file: string) => write(file, BUILT_AT + 60_000);

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'innerwave-build-stamp-'));
    for (const file of ['src/web/app.tsx', 'src/web/app.test.tsx', 'src/server/server.ts', 'build/pages.ts'])
      write(file, BUILT_AT - 60_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('holds a build whose sources are as they were', () => {
    expect(inputsUnchangedSince(BUILT_AT, INPUTS, root)).toBe(true);
  });

  it.each([
    'src/web/app.test.tsx',
    'src/web/features/music/my-music.test.ts',
    'build/pages.test.ts',
    'src/web/test/fake-sound-engine.ts',
    'src/server/test/fixtures.ts',
    'src/server/admin/test/fake-audio.ts',
    'src/server/auth/test-helpers.ts',
    'src/server/own/test-kit.ts',
    'src/server/auth/common-passwords.SOURCE.md',
  ])('holds it when %s is edited: no build reads it', (file) => {
    edited(file);
    expect(inputsUnchangedSince(BUILT_AT, [...INPUTS, ...SERVER_INPUTS], root)).toBe(true);
  });

  it.each(['src/web/app.tsx', 'src/web/features/music/testimonials.tsx', 'src/shared/bytes.ts', 'build/pages.ts'])(
    'builds the web app again when %s is edited',
    (file) => {
      edited(file);
      expect(inputsUnchangedSince(BUILT_AT, INPUTS, root)).toBe(false);
    },
  );

  it('builds the server again when its source is edited', () => {
    edited('src/server/own/music.ts');
    expect(inputsUnchangedSince(BUILT_AT, SERVER_INPUTS, root)).toBe(false);
  });
});

/** Every file under `dir` (a path under the repository) that a build reads: none of those the stamp leaves out. */
function buildInputs(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (isNoBuildInput(entry.name, entry.isDirectory())) return [];
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? buildInputs(file) : /\.(tsx?|mts|mjs)$/.test(entry.name) ? [file] : [];
  });
}

const ALIASES: Record<string, string> = { '@web/': 'src/web/', '@shared/': 'src/shared/', '@server/': 'src/server/' };

/** The path under the repository that an import of `file` names, or undefined for a package's. */
function imported(file: string, specifier: string): string | undefined {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  if (alias) return path.join(ALIASES[alias]!, specifier.slice(alias.length));
  return specifier.startsWith('.') ? path.join(path.dirname(file), specifier) : undefined;
}

describe('what the build stamp leaves out', () => {
  it('is imported by none of the app’s code: a change to it cannot change what is built', () => {
    // The command-line tools (`npm run fuzz`, `admin`, `seed`) run from their sources and are no part of a build.
    const code = [...new Set([...INPUTS, ...SERVER_INPUTS])]
      .filter((input) => !path.extname(input) || /\.(tsx?|mjs)$/.test(input))
      .flatMap((input) => (path.extname(input) ? [input] : buildInputs(input)))
      .filter((file) => path.basename(file) !== 'cli.ts');
    expect(code.length).toBeGreaterThan(100);
    const leftOut = code.flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)]
        .map((match) => imported(file, match[1]!))
        .filter(
          (target): target is string =>
            target !== undefined &&
            target
              .split(path.sep)
              .some((part, i, parts) =>
                i < parts.length - 1 ? isNoBuildInput(part, true) : isNoBuildInput(`${part}.ts`, false),
              ),
        )
        .map((target) => `${file} imports ${target}`),
    );
    expect(leftOut).toEqual([]);
  });
});
