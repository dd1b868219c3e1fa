import { RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProviders } from './providers';
import { followDraftsOfOtherTabs } from '@web/lib/form-draft';
import { sessionStore } from '@web/lib/session';
import { isAdminPath, paths } from '@web/lib/paths';
import type { AppRouter } from './router';

export function App({ queryClient, router }: { queryClient: QueryClient; router: AppRouter }) {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

/**
 * The session was read from storage when lib/session loaded; its refresh timer starts with the app, or
 * with the login. Its module loads only then: a signed-out visitor's pages (sign-up, login) never need it.
 */
export function followSession(router: AppRouter, queryClient: QueryClient): void {
  let started = false;
  const start = () => {
    if (started || !sessionStore.get().isAuthenticated) return;
    started = true;
    void import('@web/lib/session-refresh').then(({ startSessionLifecycle }) =>
      startSessionLifecycle((to) => void router.navigate(to)),
    );
    // Asked for while the portal's chunks load: a portal page waits for it (portal-shell.tsx). An admin
    // page never shows the invitation, so it never asks.
    if (!isAdminPath(router.state.location.pathname))
      void import('@web/features/guidance/api/guidance').then(({ onboardingQuery }) =>
        queryClient.prefetchQuery(onboardingQuery()),
      );
  };
  sessionStore.subscribe(start);
  start();
  followPerson(queryClient);
  // Signed in or not: a tab sent to login keeps its drafts for the next login, unless the person logged out elsewhere.
  followDraftsOfOtherTabs();
}

/**
 * What the tab holds of a person (the query cache) is theirs alone (docs/product/accounts.md#session-in-the-browser):
 * once their session ends, or another person's takes its place, it is dropped, so that no one is shown another's
 * data, say after signing out and in as someone else in the same tab. A tab that showed one person when another
 * signs in from another tab is loaded again: its page, or a form it still shows, holds the first person's data and
 * words, which a save would send to the second person's account.
 */
export function followPerson(
  queryClient: QueryClient,
  reload = (to?: string) => (to === undefined ? window.location.reload() : window.location.replace(to)),
): () => void {
  const personOf = ({ isAuthenticated, id }: ReturnType<typeof sessionStore.get>) => (isAuthenticated ? id : null);
  let person = personOf(sessionStore.get());
  /** The last person the tab was signed in as, through a sign-out since. */
  let shown = person;
  return sessionStore.subscribe(() => {
    const session = sessionStore.get();
    // Signed in, its id not written yet (another tab's login writes its keys one by one): the same person so far.
    if (session.isAuthenticated && session.id === null) return;
    const now = personOf(session);
    if (now === person) return;
    if (person !== null) queryClient.clear();
    person = now;
    if (now === null) return;
    // A tab that was signing out goes to the player instead: loaded again, /logout would sign the new person out.
    if (shown !== null && shown !== now && sessionStore.changedInOtherTab())
      reload(window.location.pathname === paths.logout ? paths.subliminals : undefined);
    shown = now;
  });
}
