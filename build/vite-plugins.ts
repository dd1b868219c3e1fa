import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { build, type Plugin, type UserConfig } from 'vite';
import { THEME_STORAGE_KEY } from '../src/web/lib/theme.ts';

/**
 * The head every page shares: charset, viewport, title, description, colours, icon, and the theme applied before first paint
 * (the same rule as lib/theme, inline so the page never flashes). The server allows this inline
 * script by its hash in the CSP.
 */
export function sharedHead(): Plugin {
  // Preloading the Latin face of the one web font lets text paint in it at once instead of after
  // the stylesheet has been read (fontsource declares it with font-display: swap).
  const fontPreload = (bundle: Record<string, unknown> | undefined) => {
    const font = Object.keys(bundle ?? {}).find((file) => /\/inter-latin-wght-normal-[^/]+\.woff2$/.test(file));
    return font
      ? [{ tag: 'link', attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${font}`, crossorigin: '' } }]
      : [];
  };
  const themeScript = `(function(){try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');var d=t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;document.documentElement.classList.toggle('dark',d);document.documentElement.style.colorScheme=d?'dark':'light'}catch(e){}})()`;
  return {
    name: 'innerwave:shared-head',
    transformIndexHtml: (_html, ctx) => [
      // First in the head: the charset must come within its first 1024 bytes.
      ...[
        { tag: 'meta', attrs: { charset: 'UTF-8' } },
        { tag: 'meta', attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1' } },
        { tag: 'title', children: 'Innerwave — subliminal affirmations, solfeggio and binaural beats' },
      ].map((tag) => ({ ...tag, injectTo: 'head-prepend' as const })),
      ...[
        ...fontPreload(ctx.bundle),
        {
          tag: 'meta',
          attrs: {
            name: 'description',
            content:
              'Innerwave helps you build calm, focused habits with on-screen affirmations, solfeggio meditation audio and binaural beats made in your browser.',
          },
        },
        { tag: 'meta', attrs: { name: 'theme-color', content: '#0b1026' } },
        { tag: 'link', attrs: { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' } },
        { tag: 'script', children: themeScript },
      ].map((tag) => ({ ...tag, injectTo: 'head' as const })),
    ],
  };
}

/**
 * Everything the home page loads up front in one chunk: its whole static import graph, React
 * included (collected once the module graph is complete). Left to automatic splitting, that graph
 * is a dozen small chunks shared with the SPA, and over HTTP/1.1's six connections per host they
 * hold the hero image back. The SPA reuses the chunk, so a visitor moving on from `/` fetches it once.
 */
export function homeChunk(homeEntry: string) {
  const homeModules = new Set<string>();
  const plugin: Plugin = {
    name: 'innerwave:home-chunks',
    apply: 'build',
    buildEnd() {
      homeModules.clear();
      const pending = [...(this.getModuleInfo(homeEntry)?.importedIds ?? [])];
      for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
        if (homeModules.has(id)) continue;
        homeModules.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  const groups = [{ name: 'home', test: (id: string) => homeModules.has(id) }];
  return { plugin, groups };
}

/**
 * Renders the home page to HTML at build time and puts it into home.html, so a first visit paints
 * the whole page (hero image included) before any JavaScript runs; home.tsx then hydrates it.
 * The page is rendered by a server build of src/web/home-prerender.tsx that shares this build's
 * aliases and asset naming, so image URLs match the client's.
 */
export function prerenderHome(sharedConfig: () => Pick<UserConfig, 'root' | 'resolve' | 'plugins' | 'build'>): Plugin {
  return {
    name: 'innerwave:prerender-home',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const page = bundle['home.html'];
        if (page?.type !== 'asset') this.error('the build has no home.html to pre-render');
        const outDir = path.resolve(import.meta.dirname, '../node_modules/.cache/innerwave-prerender');
        rmSync(outDir, { recursive: true, force: true });
        const config = sharedConfig();
        await build({
          configFile: false,
          logLevel: 'warn',
          root: config.root,
          resolve: config.resolve,
          plugins: config.plugins,
          build: { ...config.build, ssr: 'home-prerender.tsx', outDir, emptyOutDir: true, ssrEmitAssets: false },
        });
        const { renderHome } = (await import(pathToFileURL(path.join(outDir, 'home-prerender.js')).href)) as {
          renderHome: () => string;
        };
        const html = String(page.source);
        if (!html.includes('<div id="root"></div>')) this.error('home.html has no empty #root to fill');
        page.source = html.replace('<div id="root"></div>', `<div id="root">${renderHome()}</div>`);
      },
    },
  };
}

/**
 * Writes .br and .gz next to every text asset, once, at build time; the server sends them to
 * browsers that accept them (@fastify/static preCompressed), so nothing is compressed per request.
 */
export function precompress(): Plugin {
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
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(buffer, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}
