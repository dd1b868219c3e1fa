// The paths module alone: the contract's index would bring zod into every page's first load.
import { EMAILED_PAGES, SHARED_PAGE } from '@shared/contract/paths';

// Every route of the SPA in one place (docs/product/screens.md#routes). Builders for routes with parameters.
export const paths = {
  home: '/',
  signup: '/signup',
  /** No page of its own any more: redirects to login (app/router.tsx). */
  checkInbox: '/signup/check-inbox',
  login: '/login',
  logout: '/logout',
  subliminals: '/subliminals',
  music: '/music',
  profile: '/profile',
  applications: '/applications',
  support: '/support',
  welcome: '/welcome',
  programs: '/programs',
  program: '/programs/:slug',
  practice: '/practice',
  activate: EMAILED_PAGES.activation,
  resetPassword: EMAILED_PAGES.resetRequest,
  passwordReset: EMAILED_PAGES.passwordReset,
  emailChange: EMAILED_PAGES.emailChange,
  portalHome: '/portal/home/',
  terms: '/terms/',
  privacy: '/privacy/',
  shared: SHARED_PAGE,
  admin: '/admin',
  adminMessages: '/admin/messages',
  adminAudio: '/admin/audio',
  adminPrograms: '/admin/programs',
  adminApplications: '/admin/applications',
  adminUsers: '/admin/users',
  adminSupport: '/admin/support',
} as const;

/** Whether a path is one of staff's admin pages (`/admin` and its tabs). */
export const isAdminPath = (pathname: string) => pathname === paths.admin || pathname.startsWith(`${paths.admin}/`);

/** The login page, remembering where to go afterwards (the route guard's redirect). */
export const loginWithRedirect = (target: string) => `${paths.login}?redirect=${encodeURIComponent(target)}`;

/** The plan a visitor chose, carried from the pricing table into checkout (docs/product/screens.md#choosing-a-plan). */
export const planPaths = {
  signup: (plan: string) => `${paths.signup}?plan=${plan}`,
  login: (plan: string) => `${paths.login}?plan=${plan}`,
  /** The profile, going straight on to Stripe Checkout for the plan (or saying why it cannot). */
  checkout: (plan: string) => `${paths.profile}?checkout=${plan}`,
  /** The profile's Plan & billing panel, with the plan picked (a lock's way up). */
  choose: (plan: string) => `${paths.profile}?upgrade=${plan}#billing`,
} as const;

const REDIRECT_BASE = 'http://innerwave.invalid';

/**
 * Only same-site paths are followed after login, never another origin. The value is judged as the
 * browser will read it, so that what it drops (tabs, line breaks) or reads as a slash (a backslash)
 * cannot make `/<tab>/evil.example` a link to another site; the path is returned as parsed.
 */
export function safeRedirectTarget(value: string | null): string | null {
  if (!value?.startsWith('/')) return null;
  const url = new URL(value, REDIRECT_BASE);
  if (url.origin !== REDIRECT_BASE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
