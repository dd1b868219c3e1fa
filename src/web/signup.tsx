import { SignupDocument } from './app/documents/signup';
import { startLeanPage } from './lean-page';
import { chosenPlanOnArrival } from './lib/chosen-plan';

// A signed-in visitor gets the SPA's page; a plan named in the URL (or waiting on the device) changes
// the page, which is then rendered afresh rather than hydrated (docs/decisions/020-lean-pre-rendered-auth-pages.md).
startLeanPage(<SignupDocument />, { spaWhenSignedIn: true, fresh: chosenPlanOnArrival() !== null, toasts: true });
