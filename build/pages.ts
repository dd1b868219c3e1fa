// Which page the server sends for which path (written to dist/web/pages.json by the build; read by
// src/server/http/web.ts). Paths are the app's pages (PAGES in src/shared/contract/paths.ts); `/s/*` matches every share link.

export const DEFAULT_TITLE = 'Innerwave — subliminal affirmations, solfeggio and binaural beats';

/** The meta description of every page that has none of its own (search engines show it under the title). */
export const DEFAULT_DESCRIPTION =
  'Innerwave helps you build calm, focused habits with on-screen affirmations, solfeggio meditation audio and binaural beats made in your browser.';

/**
 * Pages rendered to HTML at build time and started by a lean entry of their own (src/web/<name>.tsx,
 * src/web/<name>.html): React and the page, no router, query client or API contract. The title is
 * the one the page sets itself once running; `description`, the page's own meta description (else
 * DEFAULT_DESCRIPTION: the legal pages and forms showed the home page's in search results). `portalFrame`: someone signed in gets the page in the
 * portal's chrome, so its document also carries it so rendered, for their visit to paint at once
 * (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md). `appModules` (under src/web): the SPA's
 * modules the page hands over to (its entry and the route of its path), preloaded from its first paint for a visit
 * that will start the app: every page whose entry starts the SPA for someone signed in lists them, and a signed-in
 * visit of a `portalFrame` page also gets the portal's layout, PORTAL_LAYOUT_MODULE
 * (docs/decisions/097-the-app-comes-sooner-builds-when-needed-and-sizes-read-well.md, docs/decisions/103-the-app-comes-sooner-for-every-signed-in-visit.md).
 */
export const PRERENDERED_PAGES = [
  { name: 'home', path: '/', title: DEFAULT_TITLE },
  {
    name: 'terms',
    path: '/terms/',
    title: 'Terms and conditions · Innerwave',
    description:
      'Plain-language terms for using Innerwave: your account, plans and payment, price changes, support and liability.',
    portalFrame: true,
    appModules: ['spa.tsx', 'app/routes/terms.tsx'],
  },
  {
    name: 'privacy',
    path: '/privacy/',
    title: 'Privacy policy · Innerwave',
    description:
      'What Innerwave stores about you, why, for how long, who it is shared with, and what you can ask us to do with it.',
    portalFrame: true,
    appModules: ['spa.tsx', 'app/routes/privacy.tsx'],
  },
  {
    name: 'portal-home',
    path: '/portal/home/',
    title: 'Portal · Innerwave',
    portalFrame: true,
    appModules: ['spa.tsx', 'app/routes/portal-home.tsx'],
  },
  // The account forms (docs/decisions/020-lean-pre-rendered-auth-pages.md): their own entries, no zod. Someone
  // signed in gets the SPA's page (`appModules`).
  {
    name: 'signup',
    path: '/signup',
    title: 'Create your account · Innerwave',
    description:
      'Create your free Innerwave account: on-screen affirmations, solfeggio meditation audio and binaural beats in your browser.',
    appModules: ['spa.tsx', 'app/routes/signup.tsx'],
  },
  {
    name: 'login',
    path: '/login',
    title: 'Log in · Innerwave',
    description: 'Log in to Innerwave to go on with your affirmations, meditation audio and programs.',
    appModules: ['spa.tsx', 'app/routes/login.tsx'],
  },
  {
    name: 'reset-request',
    path: '/resetpassword/',
    title: 'Reset your password · Innerwave',
    description:
      'Forgot your Innerwave password? Enter your e-mail address and we send you a link to choose a new one.',
    appModules: ['spa.tsx', 'app/routes/reset-request.tsx'],
  },
  // A share link: pre-rendered while loading, then filled with the item its document started reading,
  // or by the server with what the link shares (its frame too: src/web/render-shared.tsx). `appModules`: what
  // the app needs first when the page hands over to it (a signed-in visit, a subliminal with sound), which the
  // page then asks for beside its own code rather than after it has run (build/vite-plugins.ts, startAfterFirstPaint).
  {
    name: 'shared',
    path: '/s/*',
    title: DEFAULT_TITLE,
    portalFrame: true,
    appModules: ['spa.tsx', 'app/routes/shared.tsx'],
  },
] as const;

/**
 * The portal's layout (under src/web), which a signed-in visit to a page with a `portalFrame` is shown in
 * (AdaptiveLayout): its code is preloaded beside the page's `appModules` for such a visit only, as a visitor of a
 * share page with sound, whom the page also hands over to the app, gets the public chrome.
 */
export const PORTAL_LAYOUT_MODULE = 'components/layouts/portal-layout.tsx';

/**
 * SPA routes that get a copy of index.html preloading their page's chunks (and what those import),
 * so the page does not wait for the entry to run before asking for them. Modules are under src/web.
 */
export const PRELOADED_ROUTES = [
  ...['subliminals', 'music', 'profile', 'applications', 'support'].map((name) => ({
    name,
    path: `/${name}`,
    modules: ['app/portal-shell.tsx', `app/routes/${name}.tsx`],
  })),
];
