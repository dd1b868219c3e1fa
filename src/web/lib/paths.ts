import { EMAILED_PAGES } from '@shared/contract';

// Every route of the SPA in one place (docs/product/screens.md#routes). Builders for routes with parameters.
export const paths = {
  home: '/',
  signup: '/signup',
  login: '/login',
  logout: '/logout',
  subliminals: '/subliminals',
  music: '/music',
  profile: '/profile',
  applications: '/applications',
  activate: EMAILED_PAGES.activation,
  resetPassword: EMAILED_PAGES.resetRequest,
  passwordReset: EMAILED_PAGES.passwordReset,
  portalHome: '/portal/home/',
  terms: '/terms/',
  privacy: '/privacy/',
  admin: '/admin',
  adminMessages: '/admin/messages',
  adminAudio: '/admin/audio',
  adminApplications: '/admin/applications',
  adminUsers: '/admin/users',
} as const;

/** The login page, remembering where to go afterwards (the route guard's redirect). */
export const loginWithRedirect = (target: string) => `${paths.login}?redirect=${encodeURIComponent(target)}`;

/** Only same-site paths are followed after login, never another origin. */
export function safeRedirectTarget(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
