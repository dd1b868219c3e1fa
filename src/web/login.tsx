import { LoginDocument } from './app/documents/login';
import { signedUpAddress } from './features/auth/components/signed-up-notice';
import { startLeanPage } from './lean-page';
import { chosenPlanOnArrival } from './lib/chosen-plan';
import { historyEntryState } from './lib/link';

// A signed-in visitor gets the SPA's page; a plan named in the URL (or waiting on the device), or a
// sign-up's notice kept by this tab's history entry through a reload, changes the page, which is then
// rendered afresh rather than hydrated (docs/decisions/020-lean-pre-rendered-auth-pages.md).
const changed = chosenPlanOnArrival() !== null || signedUpAddress(historyEntryState()) !== null;
startLeanPage(<LoginDocument />, { spaWhenSignedIn: true, fresh: changed, toasts: true });
