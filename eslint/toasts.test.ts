import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// eslint.config.js: an error toast goes through toastFailure (a failed API call) or toastProblem (the page's
// own problem), so no new screen can say its own failure beside "Your session expired" again.

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function rulesBrokenBy(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const CALLING_TOAST_ERROR =
  "import { toast } from 'sonner';\nexport const fail = () => toast.error('Could not save.');\n";

describe('error toasts', () => {
  it('are refused in the web app’s features, components, app and lib', async () => {
    for (const file of [
      'src/web/features/music/components/fixture.tsx',
      'src/web/components/fixture.tsx',
      'src/web/app/fixture.tsx',
      'src/web/lib/fixture.ts',
    ])
      expect(await rulesBrokenBy(file, CALLING_TOAST_ERROR), file).toContain('no-restricted-syntax');
  });

  it('are said by the two helpers, and freely in tests', async () => {
    for (const file of ['src/web/lib/change.ts', 'src/web/lib/toast-problem.ts', 'src/web/lib/fixture.test.ts'])
      expect(await rulesBrokenBy(file, CALLING_TOAST_ERROR), file).not.toContain('no-restricted-syntax');
  });

  it('leave the other toasts alone', async () => {
    const code = "import { toast } from 'sonner';\nexport const done = () => toast.success('Saved.');\n";
    expect(await rulesBrokenBy('src/web/features/music/components/fixture.tsx', code)).toEqual([]);
  });
});
