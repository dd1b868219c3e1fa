import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '@web/lib/session';
import { loginWithRedirect } from '@web/lib/paths';

/** The route guard: unauthenticated visitors go to login, which brings them back afterwards. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (!session.isAuthenticated) {
    return <Navigate to={loginWithRedirect(location.pathname + location.search + location.hash)} replace />;
  }
  return <Outlet />;
}
