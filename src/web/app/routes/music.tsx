import { PageTitle } from '@web/components/page-title';
import { BinauralGenerator } from '@web/features/binaural/components/binaural-generator';
import { MusicLibrary } from '@web/features/music/components/music-library';
import { SoundLayers } from '@web/features/music/components/sound-layers';

export function Component() {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-10 py-4">
      <section className="flex flex-col gap-2">
        <PageTitle title="Meditation Music">Meditation Music</PageTitle>
        <p className="text-fg-muted">Solfeggio frequencies, bonus and custom tracks, and a binaural beats generator.</p>
      </section>
      <MusicLibrary />
      <section aria-labelledby="binaural-heading">
        <BinauralGenerator />
      </section>
      <SoundLayers />
    </div>
  );
}
