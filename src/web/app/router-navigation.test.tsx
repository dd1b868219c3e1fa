import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Link, usePathname } from '@web/lib/link';
import { RouterNavigation } from './router-navigation';

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
    render(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole('link', { name: 'Get Started' }));
    expect(await screen.findByText('at /signup')).toBeInTheDocument();
    expect(screen.getByText('current /signup')).toBeInTheDocument();
  });
});
