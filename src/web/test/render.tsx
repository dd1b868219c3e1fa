import { StrictMode, type ReactElement } from 'react';
import { act, render, type RenderResult } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { toast } from 'sonner';
import { vi } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import type { PlanState } from '@shared/contract';
import { NO_BILLING } from '@shared/contract/billing';
import { PLAN_FEATURES, PLAN_LIMITS, planIncludes, type PlanFeature } from '@shared/plans';
import { createQueryClient } from '@web/app/providers';
import { RouterNavigation } from '@web/app/router-navigation';

// The one way web tests render: the app's providers around the component, a router, and a fake of
// the server (the only thing outside the web app) answering fetch by method and path.

export interface ApiCall {
  method: string;
  path: string;
  /** The parsed JSON body, or the FormData / text as sent. */
  body: unknown;
  auth: string | null;
}

/** An answer: a Response as it is, or a value sent as JSON with status 200. */
export type ApiHandler = (call: ApiCall) => Response | unknown | Promise<Response | unknown>;

export const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/**
 * Answers the web app's fetch calls from `handlers`, keyed "METHOD /path/" (query string included when
 * the key has one). A call nobody answers gets a 404 and is listed in `unanswered`.
 */
export function fakeApi(handlers: Record<string, ApiHandler>) {
  const calls: ApiCall[] = [];
  const unanswered: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), window.location.origin);
      const method = (init.method ?? 'GET').toUpperCase();
      const text = typeof init.body === 'string' ? init.body : undefined;
      let body: unknown = init.body;
      if (text !== undefined) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const call = {
        method,
        path: url.pathname + url.search,
        body,
        auth: new Headers(init.headers).get('Authorization'),
      };
      calls.push(call);
      const handler = handlers[`${method} ${url.pathname}${url.search}`] ?? handlers[`${method} ${url.pathname}`];
      if (!handler) {
        unanswered.push(`${method} ${call.path}`);
        return jsonResponse(404, { detail: 'Not found.' });
      }
      const answer = await handler(call);
      return answer instanceof Response ? answer : jsonResponse(200, answer);
    }),
  );
  return { calls, unanswered };
}

export interface RenderOptions {
  /** Where the router starts. */
  path?: string;
  /** The route pattern the component is mounted on (for useParams). */
  pattern?: string;
  /** Other routes, e.g. where a screen navigates to. */
  routes?: RouteObject[];
  /** Under StrictMode, which runs effects twice as in development. */
  strict?: boolean;
  /**
   * The app's query client (app/providers.tsx: a read stays fresh 30 s and is not asked again when the tab shows
   * again), for a test of when a screen reads anew; otherwise every read is stale at once and none is retried.
   */
  appQueryClient?: boolean;
}

type Rendered = RenderResult & { router: ReturnType<typeof createMemoryRouter>; queryClient: QueryClient };

/** Renders `ui` inside a fresh query client (no retries) and a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', pattern = '*', routes = [], strict = false, appQueryClient = false }: RenderOptions = {},
): Rendered {
  return renderRoutes([...routes, { path: pattern, element: ui }], { path, strict, appQueryClient });
}

/** Renders a route tree (layouts, guards) inside the same providers. */
export function renderRoutes(
  routes: RouteObject[],
  { path = '/', strict = false, appQueryClient = false }: RenderOptions = {},
): Rendered {
  const queryClient = appQueryClient
    ? createQueryClient()
    : new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // Shared components link and navigate through the router, as in the app (app/router.tsx).
  const router = createMemoryRouter([{ element: <RouterNavigation />, children: routes }], {
    initialEntries: [path],
  });
  const tree = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  const result = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...result, router, queryClient };
}

/** What GET /api/user/plan/ answers for a plan, with no use yet: the server's rule, from the shared tables. */
export function planStateFor(plan: SubscriptionPlan): PlanState {
  const features = Object.fromEntries(
    (Object.keys(PLAN_FEATURES) as PlanFeature[]).map((feature) => [feature, planIncludes(plan, feature)]),
  ) as PlanState['features'];
  const usage = Object.fromEntries(Object.keys(PLAN_LIMITS[plan]).map((limit) => [limit, 0])) as PlanState['usage'];
  return { plan, features, limits: PLAN_LIMITS[plan], usage, billing: NO_BILLING };
}

/**
 * A plan read that fails once (500 "Server error."), as a screen's first read of the plan, and is then held until
 * `answer`: its "Try again" waits, busy, for as long as the test likes.
 */
export function planFailingOnce(): { read: () => Response | Promise<PlanState>; answer: (plan: PlanState) => void } {
  let reads = 0;
  let answerHeld: (plan: PlanState) => void = () => {};
  return {
    read: () =>
      ++reads === 1
        ? jsonResponse(500, { detail: 'Server error.' })
        : new Promise<PlanState>((resolve) => (answerHeld = resolve)),
    answer: (plan) => answerHeld(plan),
  };
}

/**
 * Presses the action button (e.g. Undo) of the latest success toast that said `text` (sonner mocked by the test);
 * answers whether the toast stays (sonner keeps one whose action prevented its default).
 */
export function pressToastAction(text: string): { kept: boolean } {
  const [, options] = vi.mocked(toast.success).mock.calls.findLast(([said]) => said === text) ?? [];
  const action = options?.action;
  if (!action || typeof action !== 'object' || !('onClick' in action)) throw new Error(`no action on "${text}"`);
  let kept = false;
  act(() => {
    const call: unknown = action.onClick({ preventDefault: () => void (kept = true) } as never);
    // An Undo that calls the server returns its call: failed, its change has said so, and the app's toaster would offer
    // it again (app/themed-toaster.tsx), which a test of that presses with sonner's own toaster.
    if (call instanceof Promise) call.catch(() => undefined);
  });
  return { kept };
}
