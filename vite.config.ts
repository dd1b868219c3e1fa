import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const root = path.resolve(import.meta.dirname, 'src/web');
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

export const aliases = {
  '@shared': path.resolve(import.meta.dirname, 'src/shared'),
  '@server': path.resolve(import.meta.dirname, 'src/server'),
  '@web': root,
};

/**
 * The home page's largest paint is the first hero image, which React only asks for once the JS has
 * run. This starts its download while the HTML is parsed, on the home page only (an inline script,
 * so other routes do not fetch it). Its hash is covered by the server's CSP like the theme script.
 */
function preloadHomeHero(): Plugin {
  return {
    name: 'innerwave:preload-home-hero',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const files = Object.keys(ctx.bundle ?? {});
        const small = files.find((file) => /\/hero-1-800-[^/]+\.webp$/.test(file));
        const large = files.find((file) => /\/hero-1-1600-[^/]+\.webp$/.test(file));
        if (!small || !large) return html;
        const script = `if(location.pathname==='/'){var l=document.createElement('link');l.rel='preload';l.as='image';l.fetchPriority='high';l.href='/${small}';l.imageSrcset='/${small} 800w, /${large} 1600w';l.imageSizes='100vw';document.head.appendChild(l)}`;
        return { html, tags: [{ tag: 'script', children: script, injectTo: 'head' }] };
      },
    },
  };
}

/**
 * Writes .br and .gz next to every text asset, once, at build time; the server sends them to
 * browsers that accept them (@fastify/static preCompressed), so nothing is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'innerwave:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|html|json|txt)$/.test(fileName)) continue;
        const file = path.join(options.dir ?? '', fileName);
        const output = bundle[fileName];
        const source = output?.type === 'chunk' ? output.code : output?.source;
        if (source === undefined || source.length < 1024) continue;
        const buffer = Buffer.from(source);
        writeFileSync(`${file}.gz`, gzipSync(buffer, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(buffer, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), preloadHomeHero(), precompress()],
  resolve: { alias: aliases },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 2048,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': apiTarget, '/media': apiTarget },
  },
});
