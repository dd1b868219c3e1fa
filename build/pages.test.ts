import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillPath, pageOf, PAGE_CRAWLING, PAGES } from '../src/shared/contract/paths.ts';
import { ROOT } from '../scripts/build-state.mjs';
import { PRELOADED_ROUTES, PRERENDERED_PAGES } from './pages.ts';

// The server sends a document of the build (pages.json) only for a path that is one of the app's pages
// (PAGES; any other gets 404, src/server/http/web.ts), and redirects a page's other form to its one URL:
// a document made for a path that is neither would never be sent.

const PARAMS = { uid: 'MQ', token: 'AbC123', slug: 'sleep-well' };
/** A path the document is sent for: a prefix's (`/s/*`) with one segment in place of its star. */
const sentFor = (path: string) => (path.endsWith('*') ? `${path.slice(0, -1)}AbC123` : path);
const documents: [kind: string, name: string, path: string][] = [
  ...PRERENDERED_PAGES.map((page): [string, string, string] => ['pre-rendered', page.name, page.path]),
  ...PRELOADED_ROUTES.map((route): [string, string, string] => ['preloading', route.name, route.path]),
];

describe('the documents the build makes for pages (build/pages.ts)', () => {
  it.each(documents)('are each made for one page of the app in its one URL: the %s %s, %s', (_kind, _name, path) => {
    expect(pageOf(sentFor(path))?.canonical).toBe(sentFor(path));
  });

  it.each(documents.filter(([, , path]) => path.endsWith('*')))(
    'give the %s %s, a prefix (%s), to one page of the app alone',
    (_kind, _name, path) => {
      const under = Object.values(PAGES).filter((page) => fillPath(page, PARAMS).startsWith(path.slice(0, -1)));
      expect(under).toEqual([pageOf(sentFor(path))?.pattern]);
    },
  );

  // A page search engines are given (the sitemap) is whole before any script runs.
  it.each(Object.entries(PAGES).filter(([key]) => PAGE_CRAWLING[key as keyof typeof PAGES] === 'listed'))(
    'pre-render every page listed for search engines: %s (%s)',
    (_key, page) => {
      expect(PRERENDERED_PAGES.map((prerendered) => prerendered.path)).toContain(page);
    },
  );
});

/** The source of `file` (a path under src/web). */
const webSource = (file: string) => readFileSync(path.join(ROOT, 'src/web', file), 'utf8');

/** The route module (under src/web) the SPA's router loads for the page `pattern` (PAGES), from its route table. */
function routeModuleOf(pattern: string): string | undefined {
  const table = webSource('app/router.tsx');
  for (const [, key, module] of table.matchAll(/\{ path: paths\.(\w+), lazy: \(\) => import\('\.\/([\w/-]+)'\) \}/g))
    if (PAGES[key as keyof typeof PAGES] === pattern) return `app/${module}.tsx`;
  return undefined;
}

// A page whose entry starts the SPA at once for someone signed in (lean-page.tsx, `spaWhenSignedIn`) names the app's
// entry and its route, for such a visit to ask for them from the first paint; a page that never starts it names
// nothing, for no visit of it to load the app (docs/decisions/103-the-app-comes-sooner-for-every-signed-in-visit.md).
describe('the app modules a pre-rendered page names (build/pages.ts, appModules)', () => {
  it.each(PRERENDERED_PAGES.map((page) => [page.name, page] as const))(
    'are the SPA’s entry and the route of its path where the page starts the app for someone signed in, else none: %s',
    (name, page) => {
      const startsSpaSignedIn = /spaWhenSignedIn: true/.test(webSource(`${name}.tsx`));
      const named = 'appModules' in page ? [...page.appModules] : [];
      if (!startsSpaSignedIn) {
        expect(named).toEqual([]);
        return;
      }
      const route = routeModuleOf(pageOf(sentFor(page.path))?.pattern ?? '');
      expect(route).toBeDefined();
      expect(named).toEqual(['spa.tsx', route]);
    },
  );
});
