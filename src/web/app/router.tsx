import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, redirect, type RouteObject } from 'react-router';
import { PublicLayout } from '@web/components/layouts/public-layout';
import { AdaptiveLayout, loadPortalLayout } from '@web/components/layouts/adaptive-layout';
import { sessionStore } from '@web/lib/session';
import { RequireAuth } from './require-auth';
import { RequireStaff } from './require-staff';
import { PageError, RouteError } from './route-error';
import { RouterNavigation } from './router-navigation';
import { paths } from '@web/lib/paths';
import { withPageData } from './page-data';

// The route table (docs/product/screens.md#routes). Every page is its own chunk, loaded when first
// visited; the portal's layout is lazy too. A first visit to `/` does not load this SPA at all: the server answers it with
// the pre-rendered home page and its own lean entry (home.tsx); the route below serves in-app visits.
// A page's module may name the queries its first render reads (`pageQueries`, page-data.ts).

export const routes: RouteObject[] = [
  {
    element: <RouterNavigation />,
    errorElement: <RouteError />,
    // A deep link's page chunk loads before the first render; the empty page shows meanwhile (a page
    // already on screen stays instead: spa.tsx).
    HydrateFallback: () => null,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.home, lazy: () => import('./routes/home') },
          { path: paths.signup, lazy: () => import('./routes/signup') },
          // Sign-up's next page until it went to login: a bookmark of it opens login (its `?plan=` kept).
          { path: paths.checkInbox, loader: ({ request }) => redirect(paths.login + new URL(request.url).search) },
          { path: paths.login, lazy: () => import('./routes/login') },
          { path: paths.activate, lazy: () => import('./routes/activate') },
          { path: paths.resetPassword, lazy: () => import('./routes/reset-request') },
          { path: paths.passwordReset, lazy: () => import('./routes/reset-confirm') },
          { path: paths.emailChange, lazy: () => import('./routes/email-confirm') },
        ],
      },
      {
        element: <AdaptiveLayout />,
        // Signed in, the page shows in the portal's layout: its code comes before the page renders.
        loader: async () => {
          if (sessionStore.get().isAuthenticated) await loadPortalLayout();
          return null;
        },
        children: [
          { path: paths.portalHome, lazy: () => import('./routes/portal-home') },
          { path: paths.terms, lazy: () => import('./routes/terms') },
          { path: paths.privacy, lazy: () => import('./routes/privacy') },
          { path: paths.shared, lazy: () => import('./routes/shared') },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.logout, lazy: () => import('./routes/logout') },
          {
            lazy: () => import('./portal-shell'),
            children: [
              {
                // A page that fails as it renders shows so in its place, in the portal's layout.
                errorElement: <PageError />,
                children: [
                  { path: paths.subliminals, lazy: () => import('./routes/subliminals') },
                  { path: paths.music, lazy: () => import('./routes/music') },
                  { path: paths.profile, lazy: () => import('./routes/profile') },
                  { path: paths.applications, lazy: () => import('./routes/applications') },
                  { path: paths.support, lazy: () => import('./routes/support') },
                  { path: paths.welcome, lazy: () => import('./routes/welcome') },
                  { path: paths.programs, lazy: () => import('./routes/programs') },
                  { path: paths.program, lazy: () => import('./routes/program') },
                  { path: paths.practice, lazy: () => import('./routes/practice') },
                  {
                    path: paths.admin,
                    element: <RequireStaff />,
                    children: [
                      {
                        lazy: () => import('./routes/admin'),
                        children: [
                          { index: true, element: <Navigate to={paths.adminMessages} replace /> },
                          { path: paths.adminMessages, lazy: () => import('./routes/admin-messages') },
                          { path: paths.adminAudio, lazy: () => import('./routes/admin-audio') },
                          { path: paths.adminPrograms, lazy: () => import('./routes/admin-programs') },
                          { path: paths.adminApplications, lazy: () => import('./routes/admin-applications') },
                          { path: paths.adminUsers, lazy: () => import('./routes/admin-users') },
                          { path: paths.adminSupport, lazy: () => import('./routes/admin-support') },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createRouter(queryClient: QueryClient): AppRouter {
  const router = createBrowserRouter(withPageData(routes, queryClient, () => !router.state.initialized));
  return router;
}
