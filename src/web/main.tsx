import './lib/zod-csp';
import './fonts.css';
import './styles.css';
import { startSpa } from './spa';

// The SPA's entry (index.html): every route without a pre-rendered page of its own.
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
startSpa(root);
