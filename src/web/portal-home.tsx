import { PortalHomeDocument } from './app/documents/portal-home';
import { startLeanPage } from './lean-page';

startLeanPage(<PortalHomeDocument />, {
  spaWhenSignedIn: true,
  // The route's own queries (app/routes/portal-home.tsx), from the module that holds them rather than the route's,
  // which waits for all the page's code: they come beside it (docs/decisions/104-a-page-s-data-comes-beside-the-apps-code.md).
  pageQueries: () => import('./features/guidance/api/guidance').then(({ hubGuidanceQueries }) => hubGuidanceQueries()),
});
