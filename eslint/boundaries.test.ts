import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.js, proved on code that must fail (and on code that must pass):
// each case lints a file that does not exist, placed in a zone, importing a real module of another.

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function rulesBrokenBy(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

/** The first source file (not a test) under a folder, as a path from the repository root. */
function firstSourceFile(folder: string): string {
  for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'))
      return path.relative(ROOT, path.join(entry.parentPath, entry.name));
  }
  throw new Error(`no source file under ${folder}`);
}

const importOf = (from: string, target: string) => {
  const relative = path.relative(path.dirname(from), target).replace(/\.tsx?$/, '');
  return `import * as imported from '${relative.startsWith('.') ? relative : `./${relative}`}';\nexport const used = imported;\n`;
};

const crossing = (from: string, target: string) => rulesBrokenBy(from, importOf(from, target));

describe('import boundaries', () => {
  it('keep src/shared free of the server, the web app and Node', async () => {
    expect(await crossing('src/shared/fixture.ts', 'src/server/config.ts')).toContain('import-x/no-restricted-paths');
    expect(await crossing('src/shared/fixture.ts', 'src/web/lib/paths.ts')).toContain('import-x/no-restricted-paths');
    expect(
      await rulesBrokenBy(
        'src/shared/fixture.ts',
        "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      ),
    ).toContain('no-restricted-imports');
  });

  it('keep the server and the web app apart, with an alias or a relative path', async () => {
    expect(await crossing('src/server/fixture.ts', 'src/web/lib/paths.ts')).toContain('import-x/no-restricted-paths');
    expect(await crossing('src/web/fixture.ts', 'src/server/config.ts')).toContain('import-x/no-restricted-paths');
    expect(
      await rulesBrokenBy(
        'src/web/fixture.ts',
        "import * as config from '@server/config';\nexport const used = config;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('keep every feature folder out of every other one', async () => {
    const features = readdirSync(path.join(ROOT, 'src/web/features'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(features.length).toBeGreaterThan(5);
    for (const [index, feature] of features.entries()) {
      const other = features[(index + 1) % features.length]!;
      const from = `src/web/features/${feature}/components/fixture.tsx`;
      expect(await crossing(from, firstSourceFile(`src/web/features/${other}`)), `${feature} → ${other}`).toContain(
        'import-x/no-restricted-paths',
      );
      expect(await crossing(from, firstSourceFile(`src/web/features/${feature}`)), `${feature} → itself`).not.toContain(
        'import-x/no-restricted-paths',
      );
    }
    expect(
      await rulesBrokenBy(
        'src/web/features/auth/fixture.ts',
        "import * as music from '@web/features/music/api/audio-lists';\nexport const used = music;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('let components and lib import neither features nor the app, and features not the app; the app composes features', async () => {
    expect(await crossing('src/web/components/fixture.tsx', firstSourceFile('src/web/features/auth'))).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await crossing('src/web/lib/fixture.ts', 'src/web/app/router.tsx')).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await crossing('src/web/features/music/fixture.ts', 'src/web/app/router.tsx')).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await crossing('src/web/app/fixture.tsx', firstSourceFile('src/web/features/auth'))).not.toContain(
      'import-x/no-restricted-paths',
    );
  });

  describe('cycles', () => {
    const folder = path.join(ROOT, `src/web/lib/cycle-fixture-${process.pid}`);
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it('are refused', async () => {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      writeFileSync(path.join(folder, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
      const [result] = await eslint.lintFiles([path.join(folder, 'a.ts')]);
      expect(result?.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle');
    });
  });
});
