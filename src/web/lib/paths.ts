// The paths module alone: the contract's index would bring zod into every page's first load.
import { PAGES } from '@shared/contract/paths';

/** Every route of the SPA (the server knows them too: @shared/contract/paths). Builders for routes with parameters below. */
export const paths = PAGES;

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
