import { SharedDocument } from './app/documents/shared';
import { takeServedShared } from './features/subliminals/api/shared-item';
import { startLeanPage } from './lean-page';
import { sessionStore } from './lib/session';

// `/s/{token}`: a signed-in visitor gets the SPA's page (play it, copy it); anyone else this one,
// which starts from what the server put in the document when it did (render-shared.tsx).
const token = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
// Signed in, the SPA shows the page and takes what the server put in the document (SharedPage).
const served = sessionStore.get().isAuthenticated ? undefined : takeServedShared();
startLeanPage(<SharedDocument token={token} served={served} />, { spaWhenSignedIn: true });
