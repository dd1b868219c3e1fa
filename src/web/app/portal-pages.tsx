import type { ReactNode } from 'react';
import { PageTitle } from '@web/components/page-title';

// The top of the portal pages that open most: each route renders its own with its contents below,
// and the build pre-renders it alone inside the portal's chrome, so the page paints from its first
// response (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md). Like every portal page they
// add no inset of their own: the portal layout's main gives all pages the same.

type PageProps = { children?: ReactNode };

function Heading({ title, intro }: { title: string; intro: string }) {
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <p className="text-fg-muted">{intro}</p>
    </>
  );
}

/**
 * A page of one column: the heading and introduction, then the contents. Its width class also sets the portal
 * note's above it (styles.css, decision 099).
 */
const columnPage = (width: string, title: string, intro: string) =>
  function ColumnPage({ children }: PageProps) {
    return (
      <section className={`mx-auto flex ${width} flex-col gap-6`}>
        <div className="flex flex-col gap-2">
          <Heading title={title} intro={intro} />
        </div>
        {children}
      </section>
    );
  };

export const SubliminalsPage = columnPage(
  'max-w-6xl',
  'Subliminals',
  'Build a playlist of affirmations from the categories below and flash them on screen.',
);
export const ProfilePage = columnPage('max-w-3xl', 'Profile', 'Your name, picture and plan, and your account.');
export const ApplicationsPage = columnPage(
  'max-w-4xl',
  'Desktop applications',
  'Innerwave for your computer: download the latest version for your system.',
);
export const SupportPage = columnPage(
  'max-w-3xl',
  'Support',
  'Tell us what went wrong or what you need; the form is open at any hour.',
);

export const MusicPage = ({ children }: PageProps) => (
  <div className="mx-auto flex max-w-6xl flex-col gap-10">
    <section className="flex flex-col gap-2">
      <Heading
        title="Meditation Music"
        intro="Solfeggio frequencies, bonus and custom tracks, and a binaural beats generator."
      />
    </section>
    {children}
  </div>
);

/** By the name of the route (build/pages.ts PRELOADED_ROUTES). */
export const PORTAL_PAGES = {
  subliminals: SubliminalsPage,
  music: MusicPage,
  profile: ProfilePage,
  applications: ApplicationsPage,
  support: SupportPage,
} as const;
