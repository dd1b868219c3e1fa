// The paths module alone: the contract's index would bring zod into every page's first load.
import { isSharePagePath, PAGES } from '@shared/contract/paths';

/** Every route of the SPA (the server knows them too: @shared/contract/paths). Builders for routes with parameters below. */
export const paths = PAGES;

/** Whether a path is one of staff's admin pages (`/admin` and its tabs). */
export const isAdminPath = (pathname: string) => pathname === paths.admin || pathname.startsWith(`${paths.admin}/`);

/** A page's URL (its query or none) that also says where to go after login (`redirect=`); `null` adds nothing. */
export const withRedirect = (url: string, target: string | null) =>
  target === null ? url : `${url}${url.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(target)}`;

/**
 * The support form filled in to ask for a plan (`?plan=<paid plan>`): where "Ask for Intermediate" leads when this
 * server takes no payments (docs/product/screens.md#profile). A form in the portal, so it works without a mail program.
 */
export const askForPlanPath = (plan: 'intermediate' | 'pro') => `${paths.support}?plan=${plan}`;

/** The login page, remembering where to go afterwards (the route guard's redirect). */
export const loginWithRedirect = (target: string) => withRedirect(paths.login, target);

/**
 * The subliminals player with a library category open, its affirmations in view (`?category=<id>`): where "For
 * you" leads a recommended category or message (docs/product/screens.md#portal-home).
 */
export const categoryPath = (id: number) => `${paths.subliminals}?category=${id}`;

/** The library category a player's URL names to open (`?category=<id>`), or null: anything else opens none. */
export function openedCategoryId(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

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
 * cannot make `/<tab>/evil.example` a link to another site; the path is returned as parsed. A path that
 * parses to one starting `//` (`/..//evil.example`, its dot segments gone) is refused too: followed, the
 * browser reads it as another site's address.
 */
export function safeRedirectTarget(value: string | null): string | null {
  if (!value?.startsWith('/')) return null;
  const url = new URL(value, REDIRECT_BASE);
  if (url.origin !== REDIRECT_BASE || url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Whether a redirect target opens the logout page, as the router matches a path: whatever the case and the
 * percent-encoding of its letters (`/LOGOUT`, `/%6Cogout`). Followed after login, it would sign the person out
 * again at once, so a login link carrying it would never let them in (docs/product/screens.md#route-guard).
 */
export function opensLogout(target: string): boolean {
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: the router keeps the path as written.
  }
  return decoded.toLowerCase().startsWith(paths.logout);
}

/**
 * The share page a sign-up returns to, from a `redirect=` value: a same-site path (as any redirect) that
 * is a share page's. Only it goes through sign-up and the activation e-mail into login
 * (docs/decisions/052-a-sign-up-from-a-share-link-comes-back-to-it.md).
 */
export function shareReturnTarget(value: string | null): string | null {
  const target = safeRedirectTarget(value);
  return target !== null && isSharePagePath(target) ? target : null;
}

/**
 * The public bar's "Log in" on the page at `pathname`: on a share page, login comes back to it as the
 * page's own "Log in" does (docs/decisions/052-a-sign-up-from-a-share-link-comes-back-to-it.md); elsewhere
 * plain login, as the spec has it.
 */
export function barLoginPath(pathname: string): string {
  const share = shareReturnTarget(pathname);
  return share === null ? paths.login : loginWithRedirect(share);
}

/** The share page a sign-up or login page opened with in its URL (what shareReturnTarget allows), or null. */
export const shareReturnOnArrival = (): string | null =>
  shareReturnTarget(new URLSearchParams(window.location.search).get('redirect'));
