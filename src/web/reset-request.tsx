import { ResetRequestDocument } from './app/documents/reset-request';
import { startLeanPage } from './lean-page';
import { chosenPlanOnArrival } from './lib/chosen-plan';

// A signed-in visitor gets the SPA's page; a plan named in the URL (or waiting on the device) changes
// the page, which is then rendered afresh rather than hydrated (docs/decisions/020-lean-pre-rendered-auth-pages.md).
startLeanPage(<ResetRequestDocument />, { spaWhenSignedIn: true, fresh: chosenPlanOnArrival() !== null, toasts: true });
