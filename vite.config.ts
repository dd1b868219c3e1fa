import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { homeChunk, precompress, prerenderHome, sharedHead } from './build/vite-plugins.ts';

const root = path.resolve(import.meta.dirname, 'src/web');
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

export const aliases = {
  '@shared': path.resolve(import.meta.dirname, 'src/shared'),
  '@server': path.resolve(import.meta.dirname, 'src/server'),
  '@web': root,
};

// Two pages: the SPA (index.html, every route) and the home page's own lean entry (home.html:
// pre-rendered, hydrated by home.tsx without the router), which the server sends for `/`.
// The settings the pre-render's server build shares (fresh plugin instances for each build).
const shared = () => ({
  root,
  resolve: { alias: aliases },
  plugins: [react()],
  build: { target: 'es2022', assetsInlineLimit: 2048 },
});

const homeEntry = path.join(root, 'home.tsx');
const homeChunkGrouping = homeChunk(homeEntry);

export default defineConfig({
  ...shared(),
  plugins: [react(), tailwindcss(), homeChunkGrouping.plugin, sharedHead(), prerenderHome(shared), precompress()],
  build: {
    ...shared().build,
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    // Every browser we support preloads modules natively.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { index: path.join(root, 'index.html'), home: path.join(root, 'home.html') },
      output: { codeSplitting: { groups: homeChunkGrouping.groups } },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': apiTarget, '/media': apiTarget },
  },
});
