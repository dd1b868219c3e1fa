import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Component as Home } from './routes/home';
import { PublicLayout } from '@web/components/layouts/public-layout';
import { AdaptiveLayout } from '@web/components/layouts/adaptive-layout';
import { RequireAuth } from './require-auth';
import { RequireStaff } from './require-staff';
import { RouteError } from './route-error';
import { paths } from '@web/lib/paths';

// The route table of spec §2. Every page is its own chunk, loaded when first visited, except the home
// page: it is the first thing most visitors see, so it ships in the entry chunk (no extra round trip).
// The portal's layout is lazy too, so a visitor's first load carries no portal code.

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.home, Component: Home },
          { path: paths.signup, lazy: () => import('./routes/signup') },
          { path: paths.login, lazy: () => import('./routes/login') },
          { path: paths.activate, lazy: () => import('./routes/activate') },
          { path: paths.resetPassword, lazy: () => import('./routes/reset-password') },
          { path: paths.passwordReset, lazy: () => import('./routes/password-reset') },
        ],
      },
      {
        element: <AdaptiveLayout />,
        children: [
          { path: paths.portalHome, lazy: () => import('./routes/portal-home') },
          { path: paths.terms, lazy: () => import('./routes/terms') },
          { path: paths.privacy, lazy: () => import('./routes/privacy') },
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
              { path: paths.subliminals, lazy: () => import('./routes/subliminals') },
              { path: paths.music, lazy: () => import('./routes/music') },
              { path: paths.profile, lazy: () => import('./routes/profile') },
              { path: paths.applications, lazy: () => import('./routes/applications') },
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
                      { path: paths.adminApplications, lazy: () => import('./routes/admin-applications') },
                      { path: paths.adminUsers, lazy: () => import('./routes/admin-users') },
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

export const createRouter = () => createBrowserRouter(routes);
