import { BinauralGenerator } from '@web/features/binaural/components/binaural-generator';
import { MusicLibrary } from '@web/features/music/components/music-library';
import { SoundLayers } from '@web/features/music/components/sound-layers';
import { MusicPage } from '../portal-pages';

export function Component() {
  return (
    <MusicPage>
      <MusicLibrary />
      <section aria-labelledby="binaural-heading">
        <BinauralGenerator />
      </section>
      <SoundLayers />
    </MusicPage>
  );
}
