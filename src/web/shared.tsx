import { SharedDocument } from './app/documents/shared';
import { startLeanPage } from './lean-page';

// `/s/{token}`: a signed-in visitor gets the SPA's page (play it, copy it); anyone else this one.
const token = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
startLeanPage(<SharedDocument token={token} />, { spaWhenSignedIn: true });
