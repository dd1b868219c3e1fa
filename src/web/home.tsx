import { HomeDocument } from './app/documents/home';
import { startLeanPage } from './lean-page';

// The home page's own entry (home.html): signed in or not, the public chrome.
startLeanPage(<HomeDocument />);
