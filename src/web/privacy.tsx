import { PrivacyDocument } from './app/documents/privacy';
import { startLeanPage } from './lean-page';

startLeanPage(<PrivacyDocument />, { spaWhenSignedIn: true });
