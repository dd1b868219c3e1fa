import { TermsDocument } from './app/documents/terms';
import { startLeanPage } from './lean-page';

startLeanPage(<TermsDocument />, { spaWhenSignedIn: true });
