import { PageTitle } from '@web/components/page-title';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12">
      <PageTitle title="Innerwave portal">Innerwave portal</PageTitle>
      <p className="text-[var(--fg-muted)]">Everything Innerwave offers, in one place: subliminals, meditation music, binaural beats and desktop applications.</p>
    </section>
  );
}
