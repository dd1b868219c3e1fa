import { StrictMode, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { HomeDocument } from './app/documents/home';
import { PortalHomeDocument } from './app/documents/portal-home';
import { PrivacyDocument } from './app/documents/privacy';
import { TermsDocument } from './app/documents/terms';

const DOCUMENTS: Record<string, ComponentType> = {
  home: HomeDocument,
  terms: TermsDocument,
  privacy: PrivacyDocument,
  'portal-home': PortalHomeDocument,
};

/** Used by the build only (build/vite-plugins.ts): a pre-rendered page's HTML for its #root. */
export function renderPage(name: string): string {
  const Document = DOCUMENTS[name];
  if (!Document) throw new Error(`no pre-rendered page named ${name}`);
  return renderToString(
    <StrictMode>
      <Document />
    </StrictMode>,
  );
}
