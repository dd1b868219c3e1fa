import type { ReactNode } from 'react';
import { PageTitle } from '@web/components/page-title';

// The top of the portal pages that open most: each route renders its own with its contents below,
// and the build pre-renders it alone inside the portal's chrome, so the page paints from its first
// response (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md).

type PageProps = { children?: ReactNode };

export function SubliminalsPage({ children }: PageProps) {
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Subliminals">Subliminals</PageTitle>
        <p className="text-fg-muted">
          Build a playlist of affirmations from the categories below and flash them on screen.
        </p>
      </div>
      {children}
    </section>
  );
}

export function MusicPage({ children }: PageProps) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-10 py-4">
      <section className="flex flex-col gap-2">
        <PageTitle title="Meditation Music">Meditation Music</PageTitle>
        <p className="text-fg-muted">Solfeggio frequencies, bonus and custom tracks, and a binaural beats generator.</p>
      </section>
      {children}
    </div>
  );
}

export function ProfilePage({ children }: PageProps) {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Profile">Profile</PageTitle>
        <p className="text-fg-muted">Your name, picture and plan, and your account.</p>
      </div>
      {children}
    </section>
  );
}

export function ApplicationsPage({ children }: PageProps) {
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Desktop applications">Desktop applications</PageTitle>
        <p className="text-fg-muted">Innerwave for your computer: download the latest version for your system.</p>
      </div>
      {children}
    </section>
  );
}

export function SupportPage({ children }: PageProps) {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Support">Support</PageTitle>
        <p className="text-fg-muted">Tell us what went wrong or what you need; the form is open at any hour.</p>
      </div>
      {children}
    </section>
  );
}

/** By the name of the route (build/pages.ts PRELOADED_ROUTES). */
export const PORTAL_PAGES = {
  subliminals: SubliminalsPage,
  music: MusicPage,
  profile: ProfilePage,
  applications: ApplicationsPage,
  support: SupportPage,
} as const;
