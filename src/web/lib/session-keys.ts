// The browser session's timing and storage keys (docs/product/accounts.md#session-in-the-browser). No
// imports: the build reads the keys too (build/vite-plugins.ts, the script that runs before first paint).

export const SESSION = {
  refreshIntervalMs: 30_000,
  storageKeys: {
    access: 'user.access',
    refresh: 'user.refresh',
    user: 'user.user',
    id: 'user.id',
    email: 'user.email',
    /** Set while the person has no onboarding invitation: a portal page's frame may show its top. */
    noInvitation: 'user.no-invitation',
    /** Set while the person has the onboarding invitation: a portal page's frame shows it above the page's top. */
    invitation: 'user.invitation',
    /** When a tab last saved the profile (names or picture): other tabs read it again on its change. */
    profileSaved: 'user.profile-saved',
    /** When a tab last saw the plan change (a payment confirmed): other tabs read everything again on its change. */
    planChanged: 'user.plan-changed',
  },
} as const;
