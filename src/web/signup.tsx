import { SignupDocument } from './app/documents/signup';
import { startLeanPage } from './lean-page';
import { chosenPlanOnArrival } from './lib/chosen-plan';
import { shareReturnOnArrival } from './lib/paths';

// A signed-in visitor gets the SPA's page; a plan named in the URL (or waiting on the device), or a share
// page to come back to (its login link carries it), changes the page, which is then rendered afresh
// rather than hydrated (docs/decisions/020-lean-pre-rendered-auth-pages.md).
const changed = chosenPlanOnArrival() !== null || shareReturnOnArrival() !== null;
startLeanPage(<SignupDocument />, { spaWhenSignedIn: true, fresh: changed, toasts: true });
