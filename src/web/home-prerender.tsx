import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { HomeDocument } from './app/home-document';

/** Used by the build only (build/vite-plugins.ts): the home page's HTML for home.html. */
export const renderHome = () =>
  renderToString(
    <StrictMode>
      <HomeDocument />
    </StrictMode>,
  );
