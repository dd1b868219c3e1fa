import type { FetchQueryOptions, QueryClient, QueryFunctionContext } from '@tanstack/react-query';
import type { QueryMeta } from './api-client';
import { accessOutlivesNextRefresh, sessionStore } from './session';

/**
 * A query a page reads in its first render (app/page-data.ts `pageQueries`), with the queries its answer calls for
 * next: the hub's recommendations, asked for only when the plan includes them.
 */
// Each query's data type is its own; what reads them only needs them fetched.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type InitialQuery = FetchQueryOptions<any, any, any, any> & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  next?: (data: any) => readonly InitialQuery[];
};

/** An early read: its query, its answer (or failure), and the session (its refresh token) it was asked in. */
interface EarlyRead {
  query: InitialQuery;
  answer: Promise<unknown>;
  session: string | null;
}

/** The reads made before the app's query cache was there, by their key. */
const waiting = new Map<string, EarlyRead>();
/** The app's query cache, once it has taken the reads: those that start later go to it at once. */
let adopter: QueryClient | null = null;

const keyOf = (query: InitialQuery) => JSON.stringify(query.queryKey);

/**
 * A signed-in visit to a pre-rendered page that starts the app asks for the data of the page the app opens on
 * beside the app's code, instead of once the app has started (docs/decisions/104-a-page-s-data-comes-beside-the-apps-code.md).
 * Each read is the query's own function, so what the cache gets is what the app would have asked for itself. An
 * access token that would not outlive the app's first refresh is renewed first, in the request the app's start then
 * shares (lib/session-refresh.ts); a session that cannot be renewed reads nothing early, and a 401 is left to the app.
 */
export async function startEarlyReads(queries: readonly InitialQuery[]): Promise<void> {
  const { isAuthenticated, refresh } = sessionStore.get();
  if (!isAuthenticated) return;
  if (!accessOutlivesNextRefresh()) {
    const { refreshAccessToken } = await import('./session-refresh');
    if ((await refreshAccessToken(refresh)) !== 'refreshed') return;
  }
  for (const query of queries) read(query, refresh);
}

function read(query: InitialQuery, session: string | null): void {
  // Another session since (a sign-out, another person's sign-in in another tab): nothing more is read for this one.
  if (sessionStore.get().refresh !== session) return;
  if (adopter) {
    void prefetch(adopter, query);
    return;
  }
  const key = keyOf(query);
  if (waiting.has(key)) return;
  // A 401 is left to the app, named in the query's meta, which its function passes on to its call (fromQuery in
  // lib/api-client.ts): the app's own queries name nothing, and renew or end the session as always.
  const meta: QueryMeta = { ...query.meta, onUnauthorized: 'throw' };
  const context = { queryKey: query.queryKey, signal: new AbortController().signal, meta };
  const answer = Promise.resolve().then(() =>
    (query.queryFn as (context: QueryFunctionContext) => Promise<unknown>)(context as QueryFunctionContext),
  );
  waiting.set(key, { query, answer, session });
  answer.then(
    (data) => {
      for (const more of query.next?.(data) ?? []) read(more, session);
    },
    () => {
      // Left to the app, which asks again in its own way (adoptEarlyReads).
    },
  );
}

/**
 * The app's query cache takes the reads under way or done as the answers of its queries: a query the app (or its
 * router) then asks for is the same request, not a second. A read that failed (a 401, a dropped connection) is
 * asked again by the query's own function, as the app would have; reads of a session that has ended since are left.
 */
export function adoptEarlyReads(queryClient: QueryClient): void {
  adopter = queryClient;
  const { refresh } = sessionStore.get();
  for (const { query, answer, session } of waiting.values()) {
    if (session !== refresh) continue;
    void queryClient.prefetchQuery({
      ...query,
      queryFn: (context: QueryFunctionContext) =>
        answer.catch(() => (query.queryFn as (context: QueryFunctionContext) => Promise<unknown>)(context)),
    });
  }
  waiting.clear();
}

/**
 * Fills the cache with `query` (a fresh answer is kept, one under way shared), then with those its answer calls
 * for next. Never throws: a failed read is left in the cache for the page to show.
 */
export async function prefetch(queryClient: QueryClient, query: InitialQuery): Promise<void> {
  await queryClient.prefetchQuery(query);
  const data: unknown = queryClient.getQueryData(query.queryKey);
  if (data === undefined || !query.next) return;
  await Promise.all(query.next(data).map((more) => prefetch(queryClient, more)));
}
