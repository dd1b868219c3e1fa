import { StrictMode, type ReactElement } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Link, usePathname } from '@web/lib/link';
import { RouterNavigation } from './router-navigation';
import { everyElementShown } from '@web/test/shown';

/** As in the app (app/providers.tsx), the router sits inside the query client. */
const renderWithQueries = (ui: ReactElement) =>
  render(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);

function Where() {
  return <p>at {useLocation().pathname}</p>;
}

function CurrentPath() {
  return <p>current {usePathname()}</p>;
}

describe('Link', () => {
  it('is a plain link that loads the document outside the router (the home page entry)', () => {
    render(
      <>
        <Link to="/signup" className="cta">
          Get Started
        </Link>
        <CurrentPath />
      </>,
    );
    const link = screen.getByRole('link', { name: 'Get Started' });
    expect(link).toHaveAttribute('href', '/signup');
    expect(link).toHaveClass('cta');
    expect(screen.getByText(`current ${window.location.pathname}`)).toBeInTheDocument();
  });

  it('navigates inside the SPA without loading a document, and reports the router path', async () => {
    const router = createMemoryRouter(
      [
        {
          element: <RouterNavigation />,
          children: [
            { path: '/', element: <Link to="/signup">Get Started</Link> },
            {
              path: '/signup',
              element: (
                <>
                  <Where />
                  <CurrentPath />
                  <Outlet />
                </>
              ),
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    renderWithQueries(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole('link', { name: 'Get Started' }));
    expect(await screen.findByText('at /signup')).toBeInTheDocument();
    expect(screen.getByText('current /signup')).toBeInTheDocument();
  });

  it('scrolls to the #section a link names once that page has rendered it', async () => {
    const scrolled: string[] = [];
    // jsdom does not lay out, so it has no scrollIntoView: record the calls instead.
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this.id);
    });
    const router = createMemoryRouter(
      [
        {
          element: <RouterNavigation />,
          children: [
            { path: '/', element: <Link to="/portal/home/#contact">Contact</Link> },
            {
              path: '/portal/home/',
              element: (
                <>
                  <h2 id="learn">Learn</h2>
                  <h2 id="contact">Contact</h2>
                </>
              ),
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    renderWithQueries(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole('link', { name: 'Contact' }));
    await waitFor(() => expect(scrolled).toEqual(['contact']));
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  it('focuses the heading of a page a link opens, not of the first page, also under StrictMode', async () => {
    everyElementShown();
    const router = createMemoryRouter(
      [
        {
          element: <RouterNavigation />,
          children: [
            {
              path: '/',
              element: (
                <main id="main">
                  <h1>Home</h1>
                  <Link to="/music">Music</Link>
                </main>
              ),
            },
            {
              path: '/music',
              element: (
                <main id="main">
                  <h1>Music</h1>
                </main>
              ),
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    // As in development (spa.tsx): StrictMode mounts, unmounts and mounts every effect again.
    renderWithQueries(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
    // The heading is looked for a frame after the effect; give it a few.
    for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(screen.getByRole('heading', { name: 'Home' })).not.toHaveFocus();
    expect(document.activeElement).toBe(document.body);

    await userEvent.click(screen.getByRole('link', { name: 'Music' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Music' })).toHaveFocus());
  });

  it('focuses the heading that comes with a page’s data, however long past the wait for its code the read takes', async () => {
    everyElementShown();
    vi.useFakeTimers({ toFake: ['performance'] });
    onTestFinished(() => void vi.useRealTimers());
    let answer: (title: string) => void = () => {};
    // A program's page: its heading is the program's title, shown once the program is read.
    function Program() {
      const program = useQuery({
        queryKey: ['program'],
        queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
      });
      return <main id="main">{program.data ? <h1>{program.data}</h1> : <p role="status">Loading</p>}</main>;
    }
    const router = createMemoryRouter(
      [
        {
          element: <RouterNavigation />,
          children: [
            { path: '/', element: <Link to="/programs/calm">Calm</Link> },
            { path: '/programs/calm', element: <Program /> },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    renderWithQueries(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole('link', { name: 'Calm' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    // A slow network: the read answers well past the time the heading is looked for while the page's code comes.
    vi.advanceTimersByTime(10_000);
    for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    answer('Calm in seven days');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Calm in seven days' })).toHaveFocus());
  });

  it('leaves the keyboard in the field a page it opens focuses as it mounts', async () => {
    everyElementShown();
    const router = createMemoryRouter(
      [
        {
          element: <RouterNavigation />,
          children: [
            { path: '/', element: <Link to="/login">Log in</Link> },
            {
              path: '/login',
              element: (
                <main id="main">
                  <h1>Log in</h1>
                  <input aria-label="Password" autoFocus />
                </main>
              ),
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    renderWithQueries(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole('link', { name: 'Log in' }));
    expect(screen.getByLabelText('Password')).toHaveFocus();
    for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });
});

describe("the app's start", () => {
  const started = () => document.documentElement.hasAttribute('data-started');

  it('is marked on the document once the first page shows, after the move a redirect of it makes', async () => {
    // The tests above rendered the router too, which marked it.
    document.documentElement.removeAttribute('data-started');
    let giveLoginCode!: () => void;
    const loginCode = new Promise<void>((resolve) => (giveLoginCode = resolve));
    const router = createMemoryRouter(
      [
        {
          element: <RouterNavigation />,
          children: [
            // What the guard does for a visitor signed out: a redirect in an effect of the first render.
            { path: '/', element: <Navigate to="/login" replace /> },
            { path: '/login', lazy: () => loginCode.then(() => ({ element: <Where /> })) },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    renderWithQueries(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    // The first page has rendered, but the app has not started while the page it goes to still loads its code.
    expect(started()).toBe(false);
    giveLoginCode();
    expect(await screen.findByText('at /login')).toBeInTheDocument();
    await waitFor(() => expect(started()).toBe(true));
  });
});
