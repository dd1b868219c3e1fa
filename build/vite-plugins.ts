import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import sharp from 'sharp';
import { build, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { EARLY_CLICKS_RECORDER } from '../src/web/lib/early-clicks.ts';
import { describeAccount } from '../src/web/lib/describe-account.ts';
import { HANDS_OVER_CLASS } from '../src/web/lib/hand-over.ts';
import { FRAME_ACCOUNT_EMAIL_ATTRIBUTE } from '../src/web/lib/portal-frame.ts';
import { SESSION } from '../src/web/lib/session-keys.ts';
import { THEME_STORAGE_KEY } from '../src/web/lib/theme.ts';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_TITLE,
  PORTAL_LAYOUT_MODULE,
  PRELOADED_ROUTES,
  PRERENDERED_PAGES,
} from './pages.ts';

/**
 * The head every page shares: charset, viewport, title, description, colours, icon, and the theme applied before first paint
 * (the same rule as lib/theme, inline so the page never flashes). The server allows this inline
 * script by its hash in the CSP.
 */
export function sharedHead(): Plugin {
  // Preloading the Latin face of the one web font lets text paint in it at once instead of after
  // the stylesheet has been read (src/web/fonts.css declares it with font-display: swap).
  const fontPreload = (bundle: Record<string, unknown> | undefined) => {
    const font = Object.keys(bundle ?? {}).find((file) => /\/inter-latin-wght-400-700-[^/]+\.woff2$/.test(file));
    return font
      ? [{ tag: 'link', attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${font}`, crossorigin: '' } }]
      : [];
  };
  // Also marks a signed-in visit, and one with no onboarding invitation or with it, for the pages' portal frame (portalFrame below, src/web/styles.css).
  // A browser that refuses storage throws at each read (site data blocked): the system's preference still decides.
  const beforePaintScript = `(function(){var h=document.documentElement;function s(k){try{return localStorage.getItem(k)}catch(e){return null}}var t=s('${THEME_STORAGE_KEY}');var d=t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;h.classList.toggle('dark',d);h.style.colorScheme=d?'dark':'light';h.classList.toggle('signed-in',!!s('${SESSION.storageKeys.access}'));h.classList.toggle('no-invitation',!!s('${SESSION.storageKeys.noInvitation}'));h.classList.toggle('invitation',!!s('${SESSION.storageKeys.invitation}'))})()`;
  const titles = new Map<string, string>(PRERENDERED_PAGES.map((page) => [`${page.name}.html`, page.title]));
  const descriptions = new Map<string, string>(
    PRERENDERED_PAGES.flatMap((page) => ('description' in page ? [[`${page.name}.html`, page.description]] : [])),
  );
  return {
    name: 'innerwave:shared-head',
    transformIndexHtml: (_html, ctx) => [
      // First in the head: the charset must come within its first 1024 bytes.
      ...[
        { tag: 'meta', attrs: { charset: 'UTF-8' } },
        { tag: 'meta', attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1' } },
        { tag: 'title', children: titles.get(path.basename(ctx.filename)) ?? DEFAULT_TITLE },
      ].map((tag) => ({ ...tag, injectTo: 'head-prepend' as const })),
      ...[
        ...fontPreload(ctx.bundle),
        {
          tag: 'meta',
          attrs: {
            name: 'description',
            content: descriptions.get(path.basename(ctx.filename)) ?? DEFAULT_DESCRIPTION,
          },
        },
        { tag: 'meta', attrs: { name: 'theme-color', content: '#0b1026' } },
        // The .ico for browsers without SVG icons; its `sizes` keeps the others on the SVG (siteIcons below).
        { tag: 'link', attrs: { rel: 'icon', href: '/favicon.ico', sizes: '32x32' } },
        { tag: 'link', attrs: { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' } },
        { tag: 'link', attrs: { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' } },
        { tag: 'script', children: beforePaintScript },
      ].map((tag) => ({ ...tag, injectTo: 'head' as const })),
    ],
  };
}

/**
 * What the pre-rendered pages load up front, in few chunks: `lean`, the modules every one of their
 * entries imports (React, the public chrome), and `home`, the marketing feature that only the home
 * page imports (collected once the module graph is complete); the rest is split automatically, so
 * the SPA's pages that share a module with the home page (a form field) do not load the home page. Left to automatic splitting, that graph is a
 * dozen small chunks shared with the SPA, and over HTTP/1.1's six connections per host they hold the
 * hero image back. The SPA reuses both, so a visitor moving on fetches them once.
 */
export function leanChunks(homeEntry: string, otherEntries: string[]) {
  const lean = new Set<string>();
  const home = new Set<string>();
  const plugin: Plugin = {
    name: 'innerwave:lean-chunks',
    apply: 'build',
    buildEnd() {
      const graph = (entry: string) => {
        const seen = new Set<string>();
        const pending = [...(this.getModuleInfo(entry)?.importedIds ?? [])];
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          if (seen.has(id)) continue;
          seen.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const homeGraph = graph(homeEntry);
      const others = otherEntries.map(graph);
      lean.clear();
      home.clear();
      for (const id of homeGraph) {
        if (others.every((other) => other.has(id))) lean.add(id);
        else if (
          !others.some((other) => other.has(id)) &&
          id.includes(`${path.sep}features${path.sep}marketing${path.sep}`)
        )
          home.add(id);
      }
    },
  };
  // lucide-react's index imports every icon the app uses anywhere, so the graph walk finds them all
  // under every entry: an icon goes where its importers are instead (each a few hundred bytes, 60+ of them).
  const isIcon = (id: string) => /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(id);
  const groups = [
    { name: 'lean', test: (id: string) => lean.has(id) && !isIcon(id), priority: 2 },
    { name: 'home', test: (id: string) => home.has(id), priority: 1, includeDependenciesRecursively: false },
  ];
  return { plugin, groups };
}

type RenderConfig = Pick<UserConfig, 'root' | 'resolve' | 'plugins' | 'build'>;

/**
 * The server build of the web app's renderers into `outDir`: `prerender.js` (src/web/prerender.tsx),
 * which renders the pre-rendered pages at build time, and `shared.js` (src/web/render-shared.tsx),
 * which the server loads to fill the share page's document with what its link shares
 * (docs/decisions/024-the-server-fills-the-share-page.md). They share the client build's aliases
 * and asset naming, so image URLs match the client's. Packages are bundled too, React in its production
 * build: left in node_modules, React follows the server's NODE_ENV, which `npm start` leaves unset, and its
 * development build filled a share page in 4–5 times the CPU; lucide-react's index would load every icon
 * it has (40 MB more memory in each server worker), bundled only the few in use come.
 */
export async function buildRenderers(config: RenderConfig, outDir: string): Promise<void> {
  const root = config.root ?? '.';
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    resolve: config.resolve,
    plugins: config.plugins,
    ssr: { noExternal: true },
    // React's build fixed as the JSX is compiled for it (Vite's isProduction reads NODE_ENV as this does): a
    // production build of the app, as `npm start` makes, gets React's production build whatever NODE_ENV the
    // server then runs with; a test's build (NODE_ENV=test) compiles JSX for the development one.
    define: {
      'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV === 'production' ? 'production' : 'development'),
    },
    build: {
      ...config.build,
      ssr: true,
      outDir,
      emptyOutDir: true,
      ssrEmitAssets: false,
      copyPublicDir: false,
      rolldownOptions: {
        input: { prerender: path.join(root, 'prerender.tsx'), shared: path.join(root, 'render-shared.tsx') },
      },
    },
  });
}

/**
 * Renders the pre-rendered pages (build/pages.ts) to HTML at build time and puts each into its
 * document, so a first visit paints the whole page (the home page's hero image included) before any
 * JavaScript runs; its lean entry then hydrates it. The pages are rendered by the renderers' server
 * build (buildRenderers, into `renderDir`). Also writes the preloading copies of index.html
 * (PRELOADED_ROUTES) and pages.json, the server's map from path to document.
 */
export function prerenderPages(sharedConfig: () => RenderConfig, webRoot: string, renderDir: string): Plugin {
  return {
    name: 'innerwave:prerender-pages',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        await buildRenderers(sharedConfig(), renderDir);
        const { renderPage, renderPortalFrame } = (await import(
          pathToFileURL(path.join(renderDir, 'prerender.js')).href
        )) as {
          renderPage: (name: string, path: string) => string;
          renderPortalFrame: (name: string, path: string, options?: { notice?: boolean }) => string;
        };
        // The stylesheet goes inside each pre-rendered page (about 10 KB compressed): the page paints from its
        // first response instead of after a second round trip, which on a phone's network is most of the wait.
        const inlineStylesheets = (html: string) =>
          html.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (_link, file: string) => {
            const css = bundle[file];
            if (css?.type !== 'asset') this.error(`the build has no ${file} to inline`);
            return `<style>${String(css.source)}</style>`;
          });
        const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
        // Every module is in one chunk; an entry that is also imported (spa.tsx, by main.tsx) is no chunk's facade.
        const byModule = new Map(chunks.flatMap((chunk) => chunk.moduleIds.map((id) => [id, chunk] as const)));
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        /** The chunks of `modules` (under src/web) and every chunk they import, in the order they are first met. */
        const chunksOf = (modules: readonly string[], list: string) => {
          const files = new Set<string>();
          const add = (chunk: Rolldown.OutputChunk | undefined) => {
            if (!chunk || files.has(chunk.fileName)) return;
            files.add(chunk.fileName);
            for (const imported of chunk.imports) add(byFile.get(imported));
          };
          for (const module of modules) {
            const chunk = byModule.get(path.join(webRoot, module));
            if (!chunk) this.error(`no chunk for ${module} (${list})`);
            add(chunk);
          }
          return [...files];
        };

        const map: Record<string, string> = {};
        for (const entry of PRERENDERED_PAGES) {
          const { name, path: pagePath } = entry;
          const page = bundle[`${name}.html`];
          if (page?.type !== 'asset') this.error(`the build has no ${name}.html to pre-render`);
          const html = String(page.source);
          if (!html.includes('<div id="root"></div>')) this.error(`${name}.html has no empty #root to fill`);
          const frame = 'portalFrame' in entry ? portalFrame(renderPortalFrame(name, pagePath), pagePath) : '';
          const app =
            'appModules' in entry ? chunksOf(entry.appModules, 'PRERENDERED_PAGES').map((file) => `/${file}`) : [];
          // A signed-in visit of a page with a frame shows it in the portal's layout (what the app lists already aside).
          const portal =
            'appModules' in entry && 'portalFrame' in entry
              ? chunksOf([PORTAL_LAYOUT_MODULE], 'PORTAL_LAYOUT_MODULE')
                  .map((file) => `/${file}`)
                  .filter((file) => !app.includes(file))
              : [];
          page.source = startAfterFirstPaint(inlineStylesheets(html), { app, portal }).replace(
            '<div id="root"></div>',
            `${frame}<div id="root">${renderPage(name, pagePath)}</div>`,
          );
          map[pagePath] = `${name}.html`;
        }

        const index = bundle['index.html'];
        if (index?.type !== 'asset') this.error('the build has no index.html');
        const indexHtml = String(index.source);
        for (const route of PRELOADED_ROUTES) {
          const files = chunksOf(route.modules, 'PRELOADED_ROUTES');
          const links = files
            .filter((file) => !indexHtml.includes(`/${file}"`))
            .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
            .join('\n    ');
          // The page's frame paints from the first response (src/web/lib/portal-frame.ts), with its stylesheet
          // inline; its scripts are asked for after that paint, as on the pre-rendered pages. The onboarding
          // invitation may come above these pages.
          const frame = portalFrame(renderPortalFrame(route.name, route.path, { notice: true }), route.path, {
            notice: true,
          });
          this.emitFile({
            type: 'asset',
            fileName: `${route.name}.route.html`,
            source: startAfterFirstPaint(
              inlineStylesheets(indexHtml.replace('</head>', `  ${links}\n  </head>`)),
            ).replace('<div id="root"></div>', `${frame}<div id="root"></div>`),
          });
          map[route.path] = `${route.name}.route.html`;
        }
        this.emitFile({ type: 'asset', fileName: 'pages.json', source: `${JSON.stringify(map, null, 2)}\n` });
      },
    },
  };
}

/**
 * A page's pre-rendered portal frame (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md), for the
 * document to put before its root: kept in a template, and put in place by an inline script only for a
 * signed-in visit (the class the head's script set), so that no other visit's document holds a second copy
 * of the page, with its ids and anchors. `notice`: the onboarding invitation may come above the page (the
 * frame then holds it too, and shows it, the page's top alone or the chrome only as the visit's class says,
 * styles.css).
 */
function portalFrame(html: string, path: string, { notice = false } = {}): string {
  const frame = `<div id="portal-frame" inert data-path="${path}"${notice ? ' data-notice' : ''}>${html}</div>`;
  return `<template>${frame}</template><script>${SHOW_PORTAL_FRAME}</script>`;
}

// The account button says the address, and its badge the initials, that the app's will: describeAccount
// runs here on what the session keeps (lib/session), as the app runs it; minified, it is half as long.
const DESCRIBE_ACCOUNT = transformSync(`(${String(describeAccount)})`, {
  minifyWhitespace: true,
  minifyIdentifiers: true,
}).code.replace(/;\s*$/, '');
const SHOW_PORTAL_FRAME = `(function(){var s=document.currentScript,t=s.previousElementSibling;if(document.documentElement.classList.contains('signed-in')){var a=t.content.querySelector('[${FRAME_ACCOUNT_EMAIL_ATTRIBUTE}]'),u=null;try{u=JSON.parse(localStorage.getItem('${SESSION.storageKeys.user}'))}catch(x){}var d=${DESCRIBE_ACCOUNT}(u,localStorage.getItem('${SESSION.storageKeys.email}'));if(a&&d.email){a.textContent=d.email;var b=a.parentNode.querySelector('[data-initials]');if(b)b.setAttribute('data-initials',d.initials)}s.before(t.content)}t.remove();s.remove()})()`;

/**
 * A pre-rendered page is whole without its script, which only makes it respond (its buttons are disabled
 * until then). So the script and the chunks it imports are asked for once the page has painted: on a
 * phone's network they would otherwise share the first second with the page and its largest image. The
 * module script and its modulepreload links become one inline script that adds the same links and
 * imports the entry at the first paint. Its files are in data attributes, so its text, and the hash the
 * CSP allows it by, is the same on every page. Until the page starts, it also keeps the buttons clicked,
 * to be clicked again once the page responds (src/web/lib/early-clicks.ts).
 *
 * `app`: the files of the SPA's code that a page hands over to (build/pages.ts, `appModules`), preloaded right
 * after the page's own for a visit that will start the app: one signed in (the head's script marks it) or one
 * the server marked `hands-over` (a share link to a subliminal with sound, src/web/render-shared.tsx). `portal`:
 * those of the portal's layout, which only a signed-in visit shows the page in, after the app's for such a visit. The
 * page asked for them only once its own code had come and run; after its first paint still, so the top paints as
 * soon as before, and never for a visit that does not use the app
 * (docs/decisions/097-the-app-comes-sooner-builds-when-needed-and-sizes-read-well.md,
 * docs/decisions/103-the-app-comes-sooner-for-every-signed-in-visit.md). The loader's `data-entry` also tells the e2e
 * tests that the document starts an app, whose start a load waits for (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
export function startAfterFirstPaint(
  html: string,
  { app = [], portal = [] }: { app?: readonly string[]; portal?: readonly string[] } = {},
): string {
  const entries = [...html.matchAll(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g)];
  const [entry] = entries;
  if (entries.length !== 1 || !entry?.[1]) throw new Error('a pre-rendered page has one module script');
  const preloads = [...html.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
  const files = preloads.map((link) => link[1]).join(' ');
  const own = new Set([entry[1], ...preloads.map((link) => link[1])]);
  const appFiles = app.filter((file) => !own.has(file)).join(' ');
  const portalFiles = portal.filter((file) => !own.has(file)).join(' ');
  let result = html;
  for (const tag of [entry, ...preloads]) result = result.replace(tag[0], '');
  return result.replace(
    '</body>',
    `<script data-entry="${entry[1]}" data-preload="${files}"${appFiles ? ` data-app="${appFiles}"` : ''}${portalFiles ? ` data-portal="${portalFiles}"` : ''}>${EARLY_CLICKS_RECORDER}${FIRST_PAINT_LOADER}</script>\n</body>`,
  );
}

// Browsers without paint timing, and a tab hidden at load (it paints when shown), start at once or then.
// The links are added for about 8 ms a task, then the page gets the thread back: adding one costs a phone
// 2–6 ms, a slower one up to 30 ms, and a portal page lists some fifty, so a fixed number a task made long
// tasks on slow devices (four: 50–75 ms at 4× CPU slowdown on a slow machine) and needless ones on fast
// ones. The entry is imported once they are all in: imported sooner, the app's first dynamic imports found
// them missing and added the rest in one task. The app's files (`data-app`), then for someone signed in the portal
// layout's (`data-portal`), come after the entry's import, in the same slices: the page's own code is asked for first.
const FIRST_PAINT_LOADER = `(function(){var d=document.currentScript.dataset,s=0;function go(){if(s)return;s=1;var c=document.documentElement.classList,g=c.contains('signed-in'),f=d.preload.split(' '),n=f.length,i=0;if(d.app&&(g||c.contains('${HANDS_OVER_CLASS}')))f=f.concat(d.app.split(' '));if(d.portal&&g)f=f.concat(d.portal.split(' '));(function add(){var t=performance.now();while(i<f.length&&performance.now()-t<8){if(f[i]){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f[i];document.head.appendChild(l)}if(++i===n)import(d.entry)}if(i<f.length)setTimeout(add,0)})()}try{if(PerformanceObserver.supportedEntryTypes.indexOf('paint')<0)throw 0;new PerformanceObserver(go).observe({type:'paint',buffered:true})}catch(e){go()}})()`;

/**
 * The icons drawn from the one icon art, `svgFile` (public/favicon.svg), at build: favicon.ico (16, 32
 * and 48 px), which browsers and tools ask for whatever a page links, and apple-touch-icon.png (180
 * px, its corners square: iOS rounds them itself and shows transparent ones black).
 */
export function siteIcons(svgFile: string): Plugin {
  // Drawn at each size rather than scaled down from one, so the small ones stay sharp.
  const png = (svg: Buffer, size: number) =>
    sharp(svg, { density: (72 * size) / 64 })
      .resize(size, size)
      .png()
      .toBuffer();
  return {
    name: 'innerwave:site-icons',
    apply: 'build',
    async generateBundle() {
      const svg = readFileSync(svgFile);
      const squared = svg.toString().replace(/(<rect\b[^>]*?)\s+rx="[^"]*"/, '$1');
      if (squared === svg.toString()) this.error(`${svgFile} has no rounded background to square for the touch icon`);
      const sizes = [16, 32, 48];
      const images = await Promise.all(sizes.map((size) => png(svg, size)));
      this.emitFile({
        type: 'asset',
        fileName: 'favicon.ico',
        source: icoOf(images.map((image, i) => ({ size: sizes[i]!, png: image }))),
      });
      this.emitFile({ type: 'asset', fileName: 'apple-touch-icon.png', source: await png(Buffer.from(squared), 180) });
    },
  };
}

/** An ICO file holding PNG images (each at most 256 px), as every browser, and Windows since Vista, reads them. */
export function icoOf(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size % 256; // 0 stands for 256
    entry[1] = size % 256;
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
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
        // The speech engine's WebAssembly (18 MB, decision 019) halves with gzip; brotli of it would add 20 s to a build.
        const wasm = fileName.endsWith('.wasm');
        if (!wasm && !/\.(js|css|svg|html|json|txt)$/.test(fileName)) continue;
        const file = path.join(options.dir ?? '', fileName);
        const output = bundle[fileName];
        const source = output?.type === 'chunk' ? output.code : output?.source;
        if (source === undefined || source.length < 1024) continue;
        const buffer = Buffer.from(source);
        writeFileSync(`${file}.gz`, gzipSync(buffer, { level: 9 }));
        if (wasm) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(buffer, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}
