import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider, queryOptions, useQuery } from '@tanstack/react-query';
import { createMemoryRouter, Link, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { FIRST_RENDER_WAIT_MS, withPageData, type PageQueries } from './page-data';
import { PAGE_NOT_ARRIVED_MESSAGE, PAGE_OFFLINE_MESSAGE } from './page-unavailable';

/** An answer the test gives when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const wordsQuery = (answer: () => Promise<string>) => queryOptions({ queryKey: ['words'], queryFn: answer });

/** A page that notes what each of its renders had: its data, or "pending". */
function pageModule(name: string, query: ReturnType<typeof wordsQuery>, renders: string[]) {
  function Component() {
    const words = useQuery(query);
    renders.push(words.data ?? 'pending');
    return <p>{`${name}: ${words.data ?? 'loading'}`}</p>;
  }
  const pageQueries: PageQueries = () => [query];
  return { Component, pageQueries };
}

function renderRouter(routes: RouteObject[], path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  const router = createMemoryRouter(
    withPageData([{ HydrateFallback: () => null, children: routes }], queryClient, () => !router.state.initialized),
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('a page with pageQueries', () => {
  beforeEach(() => sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com'));
  afterEach(() => sessionStore.clear());

  it('renders once, with its data, on the first load', async () => {
    const answer = deferred<string>();
    const renders: string[] = [];
    const module = pageModule(
      'one',
      wordsQuery(() => answer.promise),
      renders,
    );
    renderRouter([{ path: '/one', lazy: async () => module }], '/one');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.queryByText(/^one:/)).toBeNull();
    answer.resolve('calm');
    expect(await screen.findByText('one: calm')).toBeInTheDocument();
    expect(new Set(renders)).toEqual(new Set(['calm']));
  });

  it('renders without its data when the first answer takes too long', async () => {
    const renders: string[] = [];
    const module = pageModule(
      'slow',
      wordsQuery(() => new Promise<string>(() => {})),
      renders,
    );
    const startedAt = performance.now();
    renderRouter([{ path: '/slow', lazy: async () => module }], '/slow');
    expect(
      await screen.findByText('slow: loading', undefined, { timeout: FIRST_RENDER_WAIT_MS * 3 }),
    ).toBeInTheDocument();
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(FIRST_RENDER_WAIT_MS - 50);
  });

  it('moves to another page at once, which shows its own loading state', async () => {
    const first = pageModule(
      'one',
      wordsQuery(async () => 'calm'),
      [],
    );
    const secondRenders: string[] = [];
    const second = pageModule(
      'two',
      queryOptions({ queryKey: ['other'], queryFn: () => new Promise<string>(() => {}) }),
      secondRenders,
    );
    renderRouter(
      [
        {
          element: (
            <>
              <Link to="/two">next</Link>
              <Outlet />
            </>
          ),
          children: [
            { path: '/one', lazy: async () => first },
            { path: '/two', lazy: async () => second },
          ],
        },
      ],
      '/one',
    );
    expect(await screen.findByText('one: calm')).toBeInTheDocument();
    await act(async () => screen.getByText('next').click());
    expect(await screen.findByText('two: loading')).toBeInTheDocument();
    expect(secondRenders[0]).toBe('pending');
  });

  it('asks for nothing when no one is signed in', async () => {
    sessionStore.clear();
    const queryFn = vi.fn(async () => 'calm');
    const module = pageModule('one', wordsQuery(queryFn), []);
    const lazy = vi.fn(async () => ({ ...module, Component: () => <p>signed out</p> }));
    renderRouter([{ path: '/one', lazy }], '/one');
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(queryFn).not.toHaveBeenCalled();
  });
});

describe('a page whose code could not be fetched', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says so inside its layout, offline, and opens by itself once the browser is back online', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const failedFetch = new TypeError('Failed to fetch dynamically imported module: /assets/programs.js');
    const lazy = vi
      .fn<() => Promise<{ Component: () => React.ReactNode }>>()
      .mockRejectedValueOnce(failedFetch)
      .mockResolvedValue({ Component: () => <p>programs</p> });
    renderRouter(
      [
        {
          element: (
            <>
              <nav>menu</nav>
              <Outlet />
            </>
          ),
          children: [{ path: '/programs', lazy }],
        },
      ],
      '/programs',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(PAGE_OFFLINE_MESSAGE);
    expect(screen.getByText('menu')).toBeInTheDocument();

    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('programs')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(lazy).toHaveBeenCalledTimes(2);
  });

  it('opens by itself when the browser is back online before the page it stands for has settled', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const lazy = vi
      .fn<() => Promise<{ Component: () => React.ReactNode }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: /assets/programs.js'))
      .mockResolvedValue({ Component: () => <p>programs</p> });
    // The browser comes back the moment the note is drawn, before React has run the page's effects.
    const backOnShow = new MutationObserver(() => {
      if (!screen.queryByRole('alert')) return;
      backOnShow.disconnect();
      online.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
    });
    backOnShow.observe(document.body, { childList: true, subtree: true });
    renderRouter([{ path: '/programs', lazy }], '/programs');
    expect(await screen.findByText('programs')).toBeInTheDocument();
    expect(lazy).toHaveBeenCalledTimes(2);
  });

  it('fetches it again on Try again, online', async () => {
    const lazy = vi
      .fn<() => Promise<{ Component: () => React.ReactNode }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ Component: () => <p>support</p> });
    renderRouter([{ path: '/support', lazy }], '/support');
    expect(await screen.findByRole('alert')).toHaveTextContent(PAGE_NOT_ARRIVED_MESSAGE);
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(await screen.findByText('support')).toBeInTheDocument();
  });
});
