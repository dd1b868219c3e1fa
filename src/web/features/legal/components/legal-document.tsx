import { useEffect, type ReactNode } from 'react';
import { CONTACT } from '@web/lib/constants';

export const LEGAL_LAST_UPDATED = 'May 13, 2025';
export const SUPPORT_EMAIL = CONTACT.supportEmail;
export const PRIVACY_EMAIL = CONTACT.privacyEmail;

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A legal page: title, date, a table of contents and numbered sections, set for reading. */
export function LegalDocument({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
}) {
  useEffect(() => {
    document.title = `${title} · Innerwave`;
  }, [title]);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16 in-portal:p-0">
      <header>
        <p className="text-sm font-semibold uppercase tracking-[0.18em] text-link">Legal</p>
        <h1 className="mt-3 text-4xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-3 text-fg-muted">
          Last updated <time dateTime="2025-05-13">{LEGAL_LAST_UPDATED}</time>
        </p>
        <div className="mt-6 text-lg leading-relaxed">{intro}</div>
      </header>
      <nav aria-label="Contents" className="mt-10 rounded-3xl border border-line bg-surface-raised p-6">
        <h2 className="text-sm font-semibold uppercase tracking-wider text-fg-muted">Contents</h2>
        <ol className="mt-3 grid gap-1 sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-link underline-offset-4 hover:underline">
                {index + 1}. {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="mt-12 scroll-mt-24"
        >
          <h2 id={`${section.id}-title`} className="text-2xl font-semibold tracking-tight">
            {index + 1}. {section.title}
          </h2>
          <div className="mt-4 flex flex-col gap-4 leading-relaxed text-fg [&_a]:text-link [&_a]:underline [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-2">
            {section.body}
          </div>
        </section>
      ))}
    </article>
  );
}
