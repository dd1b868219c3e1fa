import type { ReactElement } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@web/lib/paths';
import { PageError, ROUTE_ERROR_TITLE } from './route-error';
import { routes } from './router';
import { waitFrames } from '@web/test/frames';
import { everyElementShown } from '@web/test/shown';

/** As in the app (app/providers.tsx), the router sits inside the query client. */
const renderWithQueries = (ui: ReactElement) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {ui}
    </QueryClientProvider>,
  );

/** The routes under the one whose `lazy` loads the portal's shell. */
function portalShellChildren(table: RouteObject[]): RouteObject[] | undefined {
  for (const route of table) {
    if (route.lazy && String(route.lazy).includes('portal-shell')) return route.children;
    const found = portalShellChildren(route.children ?? []);
    if (found) return found;
  }
  return undefined;
}

describe('a portal page that fails as it renders', () => {
  it('is caught inside the portal’s layout, for every portal page', () => {
    const children = portalShellChildren(routes);
    expect(children).toHaveLength(1);
    expect(children![0]!.errorElement).toBeTruthy();
    const pagePaths = children![0]!.children!.map((route) => route.path);
    expect(pagePaths).toEqual(expect.arrayContaining([paths.subliminals, paths.profile, paths.music, paths.admin]));
  });

  it('says so in the page’s place, keeps the layout, and renders the page anew on Try again', async () => {
    let broken = true;
    function Page() {
      if (broken) throw new Error('render failed');
      return <h1>Profile</h1>;
    }
    const router = createMemoryRouter(
      [
        {
          element: (
            <div>
              <nav aria-label="Portal menu" />
              <Outlet />
            </div>
          ),
          children: [{ errorElement: <PageError />, children: [{ path: '/profile', element: <Page /> }] }],
        },
      ],
      { initialEntries: ['/profile'] },
    );
    // React reports the caught render error on the console; the page says it on screen.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      renderWithQueries(<RouterProvider router={router} />);
      expect(await screen.findByRole('heading', { name: ROUTE_ERROR_TITLE })).toBeInTheDocument();
      expect(screen.getByRole('navigation', { name: 'Portal menu' })).toBeInTheDocument();
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', paths.home);
      broken = false;
      await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    } finally {
      consoleError.mockRestore();
    }
  });

  describe('its Try again, pressed from the keyboard while the page is read again', () => {
    beforeEach(everyElementShown);

    /** A page whose render fails while `broken`, behind a loader held until `answer` is called. */
    function renderHeldPage() {
      const state = { broken: true, answer: () => {} };
      function Page() {
        if (state.broken) throw new Error('render failed');
        return <h1>Profile</h1>;
      }
      const router = createMemoryRouter(
        [
          {
            element: (
              <main id="main">
                <Outlet />
              </main>
            ),
            children: [
              {
                errorElement: <PageError />,
                children: [
                  {
                    path: '/profile',
                    element: <Page />,
                    loader: () =>
                      state.broken ? null : new Promise<null>((resolve) => (state.answer = () => resolve(null))),
                  },
                ],
              },
            ],
          },
        ],
        { initialEntries: ['/profile'] },
      );
      renderWithQueries(<RouterProvider router={router} />);
      return state;
    }

    it('keeps the keyboard, busy, and once the page comes hands it to the page’s heading', async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const state = renderHeldPage();
        const button = await screen.findByRole('button', { name: 'Try again' });
        state.broken = false;
        button.focus();
        await userEvent.keyboard('{Enter}');
        await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
        expect(button).toHaveFocus();
        state.answer();
        await waitFor(() => expect(screen.getByRole('heading', { name: 'Profile' })).toHaveFocus());
      } finally {
        consoleError.mockRestore();
      }
    });

    it('hands the keyboard to a heading that comes only with the page’s data, however long its read takes', async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      let broken = true;
      let answer: (title: string) => void = () => {};
      // A program's page: its heading is the program's title, shown once the program is read.
      function Page() {
        if (broken) throw new Error('render failed');
        const program = useQuery({
          queryKey: ['program'],
          queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
        });
        return program.data ? <h1>{program.data}</h1> : <p role="status">Loading</p>;
      }
      const router = createMemoryRouter(
        [
          {
            element: (
              <main id="main">
                <Outlet />
              </main>
            ),
            children: [{ errorElement: <PageError />, children: [{ path: '/programs/calm', element: <Page /> }] }],
          },
        ],
        { initialEntries: ['/programs/calm'] },
      );
      try {
        renderWithQueries(<RouterProvider router={router} />);
        const button = await screen.findByRole('button', { name: 'Try again' });
        broken = false;
        button.focus();
        await userEvent.keyboard('{Enter}');
        expect(await screen.findByRole('status')).toHaveTextContent('Loading');
        // The network's time: many frames pass before the program comes.
        await waitFrames(5);
        answer('Calm in seven days');
        await waitFor(() => expect(screen.getByRole('heading', { name: 'Calm in seven days' })).toHaveFocus());
      } finally {
        consoleError.mockRestore();
      }
    });

    /** A program's page whose render fails while `broken`: its heading, the program's title, comes with its read. */
    function renderProgramPage() {
      const state = { broken: true, reads: 0, answer: (_title: string) => {} };
      function Page() {
        if (state.broken) throw new Error('render failed');
        const program = useQuery({
          queryKey: ['program'],
          queryFn: () => {
            state.reads++;
            return new Promise<string>((resolve) => (state.answer = resolve));
          },
        });
        return program.data ? <h1>{program.data}</h1> : <p role="status">Loading</p>;
      }
      const router = createMemoryRouter(
        [
          {
            element: (
              <main id="main">
                <Outlet />
                <a href="/elsewhere">Elsewhere</a>
              </main>
            ),
            children: [{ errorElement: <PageError />, children: [{ path: '/programs/calm', element: <Page /> }] }],
          },
        ],
        { initialEntries: ['/programs/calm'] },
      );
      renderWithQueries(<RouterProvider router={router} />);
      return state;
    }

    describe('offline, the page’s read paused until the connection comes back', () => {
      afterEach(() => act(() => onlineManager.setOnline(true)));

      it('hands the keyboard to the page’s heading once back online the read has answered', async () => {
        const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
        try {
          const state = renderProgramPage();
          const button = await screen.findByRole('button', { name: 'Try again' });
          state.broken = false;
          act(() => onlineManager.setOnline(false));
          button.focus();
          await userEvent.keyboard('{Enter}');
          expect(await screen.findByRole('status')).toHaveTextContent('Loading');
          // Offline a while: many more frames than the hand-over looks once nothing is read.
          await waitFrames(20);
          expect(state.reads).toBe(0);
          act(() => onlineManager.setOnline(true));
          await waitFor(() => expect(state.reads).toBe(1));
          await waitFrames(5);
          state.answer('Calm in seven days');
          await waitFor(() => expect(screen.getByRole('heading', { name: 'Calm in seven days' })).toHaveFocus());
        } finally {
          consoleError.mockRestore();
        }
      });

      it('leaves the keyboard where the person put it meanwhile', async () => {
        const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
        try {
          const state = renderProgramPage();
          const button = await screen.findByRole('button', { name: 'Try again' });
          state.broken = false;
          act(() => onlineManager.setOnline(false));
          button.focus();
          await userEvent.keyboard('{Enter}');
          expect(await screen.findByRole('status')).toHaveTextContent('Loading');
          await waitFrames(20);
          const elsewhere = screen.getByRole('link', { name: 'Elsewhere' });
          elsewhere.focus();
          act(() => onlineManager.setOnline(true));
          await waitFor(() => expect(state.reads).toBe(1));
          state.answer('Calm in seven days');
          expect(await screen.findByRole('heading', { name: 'Calm in seven days' })).toBeInTheDocument();
          await waitFrames(15);
          expect(elsewhere).toHaveFocus();
        } finally {
          consoleError.mockRestore();
        }
      });
    });

    it('failing again, puts the keyboard on the heading that says so', async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        renderHeldPage();
        (await screen.findByRole('button', { name: 'Try again' })).focus();
        await userEvent.keyboard('{Enter}');
        await waitFor(() => expect(screen.getByRole('heading', { name: ROUTE_ERROR_TITLE })).toHaveFocus());
      } finally {
        consoleError.mockRestore();
      }
    });
  });
});
