import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { NavigationProvider } from '@web/lib/link';

function useRouterPathname() {
  return useLocation().pathname;
}

const routerNavigation = { Link: RouterLink, usePathname: useRouterPathname };

/** Inside the SPA, shared components link through the router (client-side, no document load). */
export function RouterNavigation() {
  return (
    <NavigationProvider value={routerNavigation}>
      <Outlet />
    </NavigationProvider>
  );
}
