import { PageTitle } from '@web/components/page-title';
import { SubliminalsPlayer } from '@web/features/subliminals/components/subliminals-player';

export function Component() {
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Subliminals">Subliminals</PageTitle>
        <p className="text-fg-muted">
          Build a playlist of affirmations from the categories below and flash them on screen.
        </p>
      </div>
      <SubliminalsPlayer />
    </section>
  );
}
