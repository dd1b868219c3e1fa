import { PageTitle } from '@web/components/page-title';
import { ProgramsList } from '@web/features/guidance/components/programs-list';

export function Component() {
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <PageTitle title="Programs">Programs</PageTitle>
        <p className="max-w-2xl text-fg-muted">
          A few days of short sessions, each day with a theme: sound, a handful of messages and a length. Go at your own
          pace; a day counts as done when its session plays to the end.
        </p>
      </div>
      <ProgramsList />
    </section>
  );
}
