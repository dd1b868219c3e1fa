import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const FEATURES = ['auth', 'marketing', 'legal', 'portal', 'subliminals', 'music', 'binaural', 'applications', 'profile', 'admin'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Only the config module reads the environment.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts', 'src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' }],
    },
  },
  // src/shared is used by both sides: no DOM, no Node, no server or web code.
  {
    files: ['src/shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'crypto', 'os'], message: 'src/shared runs in the browser too: no Node modules.' },
            { group: ['@server/*', '@web/*', '**/server/**', '**/web/**'], message: 'src/shared imports nothing from the server or the web app.' },
            { group: ['react', 'react-dom', 'fastify', 'drizzle-orm', 'drizzle-orm/*'], message: 'src/shared holds pure code only.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'navigator', 'fetch'],
    },
  },
  // The server never imports the web app.
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@web/*', '**/web/**'], message: 'The server does not import the web app.' }] }],
    },
  },
  // The web app: React rules, browser globals, never the server.
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [{ group: ['@server/*', '**/server/**'], message: 'The web app talks to the server over HTTP only.' }] }],
    },
  },
  // Features do not import each other; app/routes composes them.
  ...FEATURES.map((feature) => ({
    files: [`src/web/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@server/*', '**/server/**'], message: 'The web app talks to the server over HTTP only.' },
            {
              group: FEATURES.filter((other) => other !== feature).flatMap((other) => [`@web/features/${other}/*`, `@web/features/${other}`, `**/features/${other}/**`]),
              message: 'Features do not import each other; compose them in src/web/app/routes.',
            },
            { group: ['@web/app/*'], message: 'Features do not import the app layer (paths live in @web/lib/paths).' },
          ],
        },
      ],
    },
  })),
);
