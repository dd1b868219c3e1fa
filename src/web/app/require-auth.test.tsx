import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { renderRoutes } from '@web/test/render';
import { RequireAuth } from './require-auth';

function LoginProbe() {
  const location = useLocation();
  return <p>login page {location.search}</p>;
}

const renderAt = (url: string) =>
  renderRoutes(
    [
      { path: '/login', element: <LoginProbe /> },
      { element: <RequireAuth />, children: [{ path: '/subliminals', element: <p>player</p> }] },
    ],
    { path: url },
  );

describe('route guard', () => {
  it('sends a visitor to login with the full original path', () => {
    renderAt('/subliminals?tab=playlist#settings');
    expect(
      screen.getByText(`login page ?redirect=${encodeURIComponent('/subliminals?tab=playlist#settings')}`),
    ).toBeInTheDocument();
  });

  it('lets a signed-in user through', () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    renderAt('/subliminals');
    expect(screen.getByText('player')).toBeInTheDocument();
    sessionStore.clear();
  });
});
