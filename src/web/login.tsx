import { LoginDocument } from './app/documents/login';
import { signedUpAddress } from './features/auth/components/signed-up-notice';
import { startLeanPage } from './lean-page';
import { chosenPlanOnArrival } from './lib/chosen-plan';
import { historyEntryState } from './lib/link';
import { shareReturnOnArrival } from './lib/paths';

// A signed-in visitor gets the SPA's page; a plan named in the URL (or waiting on the device), a
// sign-up's notice kept by this tab's history entry through a reload, or a share page to come back to
// (its sign-up link carries it) changes the page, which is then rendered afresh rather than hydrated
// (docs/decisions/020-lean-pre-rendered-auth-pages.md).
const changed =
  chosenPlanOnArrival() !== null || signedUpAddress(historyEntryState()) !== null || shareReturnOnArrival() !== null;
startLeanPage(<LoginDocument />, { spaWhenSignedIn: true, fresh: changed, toasts: true });
