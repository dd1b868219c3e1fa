import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { leanChunks, precompress, prerenderPages, sharedHead, siteIcons } from './build/vite-plugins.ts';
import { PRERENDERED_PAGES } from './build/pages.ts';

const root = path.resolve(import.meta.dirname, 'src/web');
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

export const aliases = {
  '@shared': path.resolve(import.meta.dirname, 'src/shared'),
  '@server': path.resolve(import.meta.dirname, 'src/server'),
  '@web': root,
};

// The SPA (index.html, every route) and the pre-rendered pages with their own lean entries (home.html,
// terms.html, …: hydrated without the router; build/pages.ts), which the server sends for their paths.
// The settings the renderers' server build shares (fresh plugin instances for each build).
export const sharedSettings = () => ({
  root,
  resolve: { alias: aliases },
  plugins: [react()],
  build: { target: 'es2022', assetsInlineLimit: 2048 },
});
// Where that build goes: beside dist/web, never served (build/vite-plugins.ts, buildRenderers).
export const renderDir = path.resolve(import.meta.dirname, 'dist/render');

const leanEntries = PRERENDERED_PAGES.map((page) => path.join(root, `${page.name}.tsx`));
const chunkGrouping = leanChunks(leanEntries[0] ?? '', leanEntries.slice(1));

export default defineConfig({
  ...sharedSettings(),
  plugins: [
    react(),
    tailwindcss(),
    chunkGrouping.plugin,
    sharedHead(),
    prerenderPages(sharedSettings, root, renderDir),
    siteIcons(path.join(root, 'public/favicon.svg')),
    precompress(),
  ],
  build: {
    ...sharedSettings().build,
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    // Every browser we support preloads modules natively.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: {
        index: path.join(root, 'index.html'),
        ...Object.fromEntries(PRERENDERED_PAGES.map((page) => [page.name, path.join(root, `${page.name}.html`)])),
      },
      output: { codeSplitting: { groups: chunkGrouping.groups } },
    },
  },
  // The speech worker (src/web/lib/audio/speech) is a module: its WebAssembly loads beside it, on demand.
  worker: { format: 'es' },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': apiTarget, '/media': apiTarget },
  },
});
