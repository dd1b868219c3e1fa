import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAGES } from '@shared/contract/paths';
import { routes } from './router';

/** Every path the route table names, its catch-all aside. */
function routedPaths(table: RouteObject[]): string[] {
  return table.flatMap((route) => [
    ...(route.path && route.path !== '*' ? [route.path] : []),
    ...routedPaths(route.children ?? []),
  ]);
}

describe('the route table', () => {
  // The server answers 404 for any page path not in PAGES (src/server/http/web.ts): a route the router
  // has and PAGES lacks would answer 404 before the page shows; one PAGES has and the router lacks, 200.
  it('routes exactly the pages the server knows (PAGES), each once', () => {
    const routed = routedPaths(routes);
    expect(routed.toSorted()).toEqual(Object.values(PAGES).toSorted());
  });
});
