// Every API path in one place, trailing slashes as djoser's (docs/product/api.md).
export const API = {
  health: '/api/health',
  openapi: '/api/openapi.json',
  docs: '/api/docs',
  signup: '/api/users/',
  me: '/api/users/me/',
  tokenCreate: '/api/jwt/create/',
  tokenRefresh: '/api/jwt/refresh/',
  logout: '/api/logout/',
  logoutOthers: '/api/logout/others/',
  sessions: '/api/sessions/',
  activation: '/api/users/activation/',
  resetPassword: '/api/users/reset_password/',
  resetPasswordConfirm: '/api/users/reset_password_confirm/',
  resetPasswordCheck: '/api/users/reset_password_check/',
  resendActivation: '/api/users/resend_activation/',
  setPassword: '/api/users/set_password/',
  setEmail: '/api/users/set_email/',
  setEmailResend: '/api/users/set_email/resend/',
  setEmailConfirm: '/api/users/set_email_confirm/',
  profile: '/api/user/profile/',
  profileUpdate: '/api/user/profile/update/',
  profileImage: '/api/user/profile/image/',
  userExport: '/api/user/export/',
  support: '/api/user/support/',
  desktopExecutables: '/api/user/desktop-executables/',
  messageCategories: '/api/user/message-categories/',
  selfeggio: '/api/user/selfeggio/',
  bonusAudio: '/api/user/bonusaudio/',
  customAudio: '/api/user/customaudio/',
  audioLibrary: '/api/user/audio-library/',
  myCategories: '/api/user/my-categories/',
  myCategoriesOrder: '/api/user/my-categories/order/',
  myCategory: '/api/user/my-categories/:id/',
  myCategoryMessages: '/api/user/my-categories/:id/messages/',
  myCategoryMessagesOrder: '/api/user/my-categories/:id/messages/order/',
  myMessage: '/api/user/my-messages/:id/',
  myCategoryShare: '/api/user/my-categories/:id/share/',
  myMessagesExport: '/api/user/my-messages/export/',
  myMusic: '/api/user/my-music/',
  myMusicTrack: '/api/user/my-music/:id/',
  myVoice: '/api/user/my-voice/',
  myVoiceRecording: '/api/user/my-voice/:id/',
  player: '/api/user/player/',
  plan: '/api/user/plan/',
  subliminals: '/api/user/subliminals/',
  subliminal: '/api/user/subliminals/:id/',
  subliminalShare: '/api/user/subliminals/:id/share/',
  shared: '/api/shared/:token/',
  sharedCopy: '/api/shared/:token/copy/',
  billingCheckout: '/api/billing/checkout/',
  billingPortal: '/api/billing/portal/',
  billingWebhook: '/api/billing/webhook/',
  onboarding: '/api/user/onboarding/',
  programs: '/api/user/programs/',
  program: '/api/user/programs/:slug/',
  programDayComplete: '/api/user/programs/:slug/days/:day/complete/',
  programProgress: '/api/user/programs/:slug/progress/',
  history: '/api/user/history/',
  practice: '/api/user/practice/',
  reminders: '/api/user/reminders/',
  recommendations: '/api/user/recommendations/',
} as const;

/**
 * The web app's pages that e-mails link to. The web app routes them; the server writes the links (and
 * keeps their tokens out of its logs).
 */
export const EMAILED_PAGES = {
  activation: '/activation/:uid/:token',
  passwordReset: '/password-reset/:uid/:token',
  resetRequest: '/resetpassword/',
  emailChange: '/email/confirm/:uid/:token',
} as const;

/** The public page of a share link (its URL is what the share calls answer). */
export const SHARED_PAGE = '/s/:token';

/** A share page's path exactly as the server writes it: `/s/` and a token's characters (base64url), nothing more. */
const SHARE_PAGE_PATH = /^\/s\/[A-Za-z0-9_-]{1,64}$/;

/**
 * Whether a value is a share page's path, the one page a sign-up carries through its activation link
 * (docs/decisions/052-a-sign-up-from-a-share-link-comes-back-to-it.md).
 */
export const isSharePagePath = (value: string) => SHARE_PAGE_PATH.test(value);

/**
 * Every page of the web app, as the router's paths (docs/product/screens.md#routes): the web router
 * routes exactly these (src/web/app/router.tsx), and the server answers any other page path with 404
 * (src/server/http/web.ts). A trailing slash is part of a page's one URL: the other form redirects.
 */
export const PAGES = {
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

/**
 * What crawlers are told of each page (robots.txt, sitemap.xml and the `X-Robots-Tag` header,
 * src/server/http/crawlers.ts): `listed`, a public page of its own, in the sitemap; `disallowed`, a page
 * for someone signed in or for staff, a link an e-mail carries (its page acts when opened), or a page that
 * only redirects: not to be fetched, and `noindex` for a crawler that fetches it anyway; `noindex`, a share
 * link, which its sharer may post anywhere: fetched, and told not to be listed (a crawler kept from a
 * page never reads its `noindex`, and lists a link it finds elsewhere by its address alone). Every page
 * of PAGES is one of them, so a new page cannot be left out
 * (docs/decisions/048-pages-not-for-search-results-say-noindex.md).
 */
export const PAGE_CRAWLING: Record<keyof typeof PAGES, 'listed' | 'disallowed' | 'noindex'> = {
  home: 'listed',
  signup: 'listed',
  checkInbox: 'disallowed',
  login: 'listed',
  logout: 'disallowed',
  subliminals: 'disallowed',
  music: 'disallowed',
  profile: 'disallowed',
  applications: 'disallowed',
  support: 'disallowed',
  welcome: 'disallowed',
  programs: 'disallowed',
  program: 'disallowed',
  practice: 'disallowed',
  activate: 'disallowed',
  resetPassword: 'listed',
  passwordReset: 'disallowed',
  emailChange: 'disallowed',
  portalHome: 'listed',
  terms: 'listed',
  privacy: 'listed',
  shared: 'noindex',
  admin: 'disallowed',
  adminMessages: 'disallowed',
  adminAudio: 'disallowed',
  adminPrograms: 'disallowed',
  adminApplications: 'disallowed',
  adminUsers: 'disallowed',
  adminSupport: 'disallowed',
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each page's pattern as the router matches it: a `:name` is one non-empty segment, case ignored, trailing slash or not. */
const PAGE_MATCHERS = Object.values(PAGES).map((pattern) => {
  const bare = pattern === '/' ? '' : pattern.replace(/\/$/, '');
  const segments = bare.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)));
  return { pattern, regExp: new RegExp(`^${segments.join('/')}/?$`, 'i') };
});

/**
 * The page a path (without its query) names, and the path in that page's one form (the pattern's own
 * words in their case, its parameters as given, its trailing slash as the pattern has it); undefined
 * for a path that is no page of the app.
 */
export function pageOf(pathname: string): { pattern: string; canonical: string } | undefined {
  const found = PAGE_MATCHERS.find(({ regExp }) => regExp.test(pathname));
  if (!found) return undefined;
  const { pattern } = found;
  const given = (pathname.endsWith('/') && pathname !== '/' ? pathname.slice(0, -1) : pathname).split('/');
  const bare = (pattern === '/' ? '' : pattern.replace(/\/$/, ''))
    .split('/')
    .map((segment, index) => (segment.startsWith(':') ? given[index] : segment))
    .join('/');
  return { pattern, canonical: bare === '' ? '/' : pattern.endsWith('/') ? `${bare}/` : bare };
}

/** A path with its `:name` parameters filled in, each encoded. */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/:([a-z]+)/gi, (_, name: string) => encodeURIComponent(String(params[name])));
}

export const MEDIA_PREFIX = '/media/';

/** Media URLs in API answers are signed for at least this long; clients fetch new ones well before. */
export const MEDIA_LINK_MIN_LIFETIME_SECONDS = 6 * 60 * 60;
