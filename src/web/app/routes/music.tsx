import { PageTitle } from '@web/components/page-title';
import { MusicLibrary } from '@web/features/music/components/music-library';

export function Component() {
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Meditation Music">Meditation Music</PageTitle>
        <p className="text-[var(--fg-muted)]">Solfeggio frequencies, bonus and custom tracks, and a binaural beats generator.</p>
      </div>
      <MusicLibrary />
    </section>
  );
}
