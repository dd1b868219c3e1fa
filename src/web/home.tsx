import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import '@fontsource-variable/inter';
import './styles.css';
import { HomeDocument } from './app/home-document';

// The home page's own entry: React and the page, without the router, the query client or the API
// contract. Links load the SPA document (lib/link). The build pre-renders the page into #root; the
// dev server does not, so this renders it from scratch there.
const root = document.getElementById('root');
if (!root) throw new Error('home.html has no #root element');
const page = (
  <StrictMode>
    <HomeDocument />
  </StrictMode>
);
if (root.hasChildNodes()) hydrateRoot(root, page);
else createRoot(root).render(page);
