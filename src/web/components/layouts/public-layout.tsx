import { Outlet } from 'react-router';
import { PublicChrome } from './public-chrome';

/** The public pages' layout route: the public bar and footer around the matched page. */
export function PublicLayout() {
  return (
    <PublicChrome>
      <Outlet />
    </PublicChrome>
  );
}
