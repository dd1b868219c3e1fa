import { describe, expect, it } from 'vitest';
import { renderPage } from '../src/web/prerender.tsx';
import { PRERENDERED_PAGES } from './pages.ts';

// A pre-rendered page's HTML is what a visitor has until its script runs (and what a screen reader reads
// then): the public bar's links it marks as the current page are the page's own, not the home page's.

/** The text of each link the HTML marks as the current page. */
const currentLinks = (html: string) =>
  [...html.matchAll(/<a\b[^>]*\baria-current="page"[^>]*>([^<]*)</g)].map((match) => match[1]);

describe('the pre-rendered pages (build/pages.ts)', () => {
  it.each(PRERENDERED_PAGES.map((page) => [page.name, page.path] as const))(
    'mark only their own link as the current page: %s (%s)',
    (name, path) => {
      expect(currentLinks(renderPage(name, path))).toEqual(path === '/' ? ['Home'] : []);
    },
  );
});
