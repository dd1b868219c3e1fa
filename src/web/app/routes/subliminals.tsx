import { PageTitle } from '@web/components/page-title';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12">
      <PageTitle title="Subliminals">Subliminals</PageTitle>
      <p className="text-[var(--fg-muted)]">Build a playlist of affirmations from the categories below and flash them on screen.</p>
    </section>
  );
}
