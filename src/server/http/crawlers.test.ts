import { describe, expect, it } from 'vitest';
import { fillPath, pageOf, PAGE_CRAWLING, PAGES } from '@shared/contract/paths';
import { DISALLOWED_PREFIXES, LISTED_PAGES, unlistedPage } from './crawlers';

// robots.txt rules are prefixes of the paths they keep crawlers from (the served files: web.test.ts).
const disallowed = (path: string) => DISALLOWED_PREFIXES.some((prefix) => path.startsWith(prefix));

describe('what crawlers are told of the pages', () => {
  it('lists each listed page as its one URL, and disallows none of them', () => {
    for (const page of LISTED_PAGES) {
      // A page with a parameter is no one page to list.
      expect(page).not.toContain(':');
      expect([page, pageOf(page)?.canonical]).toEqual([page, page]);
      expect([page, disallowed(page)]).toEqual([page, false]);
    }
  });

  it.each(Object.entries(PAGES).filter(([key]) => PAGE_CRAWLING[key as keyof typeof PAGES] === 'disallowed'))(
    'disallows %s (%s), whatever its parameters',
    (_key, pattern) => {
      expect(disallowed(fillPath(pattern, { uid: 'MQ', token: 'abc-123', slug: 'sleep-well' }))).toBe(true);
    },
  );

  it.each(Object.entries(PAGES).filter(([key]) => PAGE_CRAWLING[key as keyof typeof PAGES] !== 'listed'))(
    'tells crawlers not to list %s (%s)',
    (_key, pattern) => {
      expect(unlistedPage(fillPath(pattern, { uid: 'MQ', token: 'abc-123', slug: 'sleep-well' }))).toBe(true);
    },
  );

  it('lets crawlers fetch a share link, so that they read its noindex', () => {
    expect(disallowed('/s/abc-123')).toBe(false);
    expect(unlistedPage('/s/abc-123')).toBe(true);
    for (const page of [...LISTED_PAGES, '/no-such-page', '/api/users/me/', '/media/x.mp3'])
      expect(unlistedPage(page)).toBe(false);
  });

  it('disallows the API', () => {
    expect(disallowed('/api/users/me/')).toBe(true);
  });
});
