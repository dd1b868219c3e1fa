import type { QueryClient } from '@tanstack/react-query';
import type { LazyRouteFunction, RouteObject } from 'react-router';
import { createElement } from 'react';
import { prefetch, type InitialQuery } from '@web/lib/early-reads';
import { sessionStore } from '@web/lib/session';
import { PageUnavailable, type PageModule as LoadedPage } from './page-unavailable';

/**
 * What a page reads in its first render, exported by its route module as `pageQueries` beside its
 * `Component` (app/routes). The router asks for them as soon as the page's chunk is in, before the page
 * renders, and on the first load of the app waits for them: the page's first render then has its data,
 * where an answer arriving after it re-rendered the page at once and in one piece (TanStack Query's
 * store updates are synchronous), a long task on a phone
 * (docs/decisions/027-a-portal-page-renders-once-with-its-data.md). A query may name those its answer calls for
 * next (`next`), which are asked for and waited for too. A pre-rendered page that starts the app asks for the same
 * queries beside the app's code, and the cache takes those answers (lib/early-reads.ts).
 */
export type PageQueries = (at: { pathname: string }) => readonly InitialQuery[];

/**
 * How long a first load waits for the page's data before rendering without it: the page's
 * pre-rendered frame shows meanwhile, inert, so a slow answer shows the page's own loading state instead.
 */
export const FIRST_RENDER_WAIT_MS = 1000;

type PageModule = Awaited<ReturnType<LazyRouteFunction<RouteObject>>> & { pageQueries?: PageQueries };

/**
 * The route table with each lazily loaded page given a loader for its `pageQueries`, and a page whose code
 * could not be fetched (offline, a dropped connection) shown as PageUnavailable, which fetches it again. `isFirstLoad`
 * tells whether the router is still making its first navigation; later moves do not wait, so the page
 * changes at once and shows its own loading state, as before.
 */
export function withPageData(
  routes: RouteObject[],
  queryClient: QueryClient,
  isFirstLoad: () => boolean,
): RouteObject[] {
  return routes.map((route) => {
    const { lazy } = route;
    const wrapped = (
      route.children ? { ...route, children: withPageData(route.children, queryClient, isFirstLoad) } : route
    ) as RouteObject;
    if (typeof lazy !== 'function') return wrapped;
    const load = async () => {
      let loaded: PageModule;
      try {
        loaded = (await lazy()) as PageModule;
      } catch {
        // The router keeps a failed module for good: the page it stands for fetches the code again itself.
        return { Component: () => createElement(PageUnavailable, { load: lazy as () => Promise<LoadedPage> }) };
      }
      const { pageQueries, ...module } = loaded;
      if (!pageQueries) return module;
      return {
        ...module,
        loader: ({ request }: { request: Request }) =>
          loadPageQueries(pageQueries, new URL(request.url).pathname, queryClient, isFirstLoad()),
      };
    };
    return { ...wrapped, lazy: load } as RouteObject;
  });
}

async function loadPageQueries(
  pageQueries: PageQueries,
  pathname: string,
  queryClient: QueryClient,
  wait: boolean,
): Promise<null> {
  // Signed out, the guard sends the visitor to login: nothing to read.
  if (!sessionStore.get().isAuthenticated) return null;
  // A failed read is left in the cache for the page to show.
  const fetched = Promise.all(pageQueries({ pathname }).map((query) => prefetch(queryClient, query)));
  if (wait) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([fetched, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_RENDER_WAIT_MS)))]);
    clearTimeout(timer);
  }
  return null;
}
