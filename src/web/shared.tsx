import { SharedDocument } from './app/documents/shared';
import { servedSharedForPage } from './features/subliminals/api/shared-item';
import { startLeanPage } from './lean-page';

// `/s/{token}`: a signed-in visitor gets the SPA's page (play it, copy it); anyone else this one,
// which starts from what the server put in the document when it did (render-shared.tsx).
const token = tokenOf(window.location.pathname.split('/')[2] ?? '');
// What the server put in the document, held for the SPA's page too (SharedPage): it shows the page to someone
// signed in, and to anyone a subliminal with sound, which this page hands over.
const served = servedSharedForPage();
// The build pre-rendered the loading document for no link (its bar's "Log in" goes to plain login, and React
// would keep that on hydrating): it is rendered afresh for this link, where the server's filled page hydrates.
startLeanPage(<SharedDocument token={token} served={served} />, { spaWhenSignedIn: true, fresh: served === undefined });

/**
 * The link's token: its path segment decoded, or as it stands when it does not decode (a link a mail
 * client mangled into `/s/%ZZ`, which the SPA's router also reads as it stands): decoding threw, and
 * the page's script stopped before it started.
 */
function tokenOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
