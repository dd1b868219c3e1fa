import { PortalHomeDocument } from './app/documents/portal-home';
import { startLeanPage } from './lean-page';

startLeanPage(<PortalHomeDocument />, { spaWhenSignedIn: true });
