import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '@web/lib/session';
import { loginWithRedirect, paths } from '@web/lib/paths';

/** The route guard: unauthenticated visitors go to login, which brings them back afterwards. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (!session.isAuthenticated) {
    // Coming back to /logout after logging in would end the new session at once.
    const target =
      location.pathname === paths.logout
        ? paths.login
        : loginWithRedirect(location.pathname + location.search + location.hash);
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}
