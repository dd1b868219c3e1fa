import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

// The zones of the code (docs/decisions/002-code-layout-and-boundaries.md), by folder: an import is
// judged by the file it resolves to, whether written with an alias or a relative path.
const FEATURES = readdirSync(new URL('src/web/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const ZONES = [
  {
    target: './src/shared',
    from: ['./src/server', './src/web'],
    message: 'src/shared imports nothing from the server or the web app.',
  },
  { target: './src/server', from: './src/web', message: 'The server does not import the web app.' },
  { target: './src/web', from: './src/server', message: 'The web app talks to the server over HTTP only.' },
  {
    target: ['./src/web/components', './src/web/lib'],
    from: ['./src/web/features', './src/web/app'],
    message: 'components/ and lib/ serve the features and the app; they import neither.',
  },
  {
    target: './src/web/features',
    from: './src/web/app',
    message: 'Features do not import the app layer (paths live in @web/lib/paths).',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`],
    message: 'Features do not import each other; compose them in src/web/app.',
  })),
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**', 'eslint/fixtures/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: ZONES }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Only the config module reads the environment.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts', 'src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' },
      ],
    },
  },
  // An error toast says either that an API call failed, through toastFailure (which keeps quiet when the call
  // ended the session: that has said so already), or a problem of the page's own, through toastProblem.
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/lib/change.ts', 'src/web/lib/toast-problem.ts', 'src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='toast'][property.name='error']",
          message:
            'A failed API call: toastFailure(error, message?) from @web/lib/change, which keeps quiet when the call ended the session. A problem of the page itself (a file too big, a microphone refused): toastProblem from @web/lib/toast-problem.',
        },
      ],
    },
  },
  // src/shared runs on both sides: no DOM, no Node, no framework.
  {
    files: ['src/shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'os'],
              message: 'src/shared runs in the browser too: no Node modules.',
            },
            {
              group: ['react', 'react-dom', 'fastify', 'drizzle-orm', 'drizzle-orm/*'],
              message: 'src/shared holds pure code only.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'navigator', 'fetch'],
    },
  },
  // A spec's test waits for the app's start after each document load: its `test` is the one of e2e/support/test.ts
  // (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
  {
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message:
                "Import from './support/test': its `test` waits for the app's start after every goto and reload.",
            },
          ],
        },
      ],
    },
  },
  // The web app: React rules and browser globals.
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Each contract module builds its zod schemas when it loads: the barrel would build all of them
      // (the staff's too) before a portal page can start.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@shared/contract',
              allowTypeImports: true,
              message: 'Import values from the module that defines them (@shared/contract/<module>).',
            },
          ],
        },
      ],
    },
  },
);
