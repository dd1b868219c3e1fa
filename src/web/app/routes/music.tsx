import { BinauralGenerator } from '@web/features/binaural/components/binaural-generator';
import { MusicLibrary } from '@web/features/music/components/music-library';
import { SoundLayers } from '@web/features/music/components/sound-layers';
import { AfterFirstPaint } from '@web/components/after-first-paint';
import { MusicPage } from '../portal-pages';
import { AUDIO_KINDS } from '@shared/contract/portal-plain';
import { libraryListQuery, ownMusicQuery } from '@web/lib/audio/track-lists';
import type { PageQueries } from '../page-data';

export const pageQueries: PageQueries = () => [...AUDIO_KINDS.map(libraryListQuery), ownMusicQuery()];

export function Component() {
  return (
    <MusicPage>
      <MusicLibrary />
      {/* Below the library: rendered once the library is painted. */}
      <AfterFirstPaint>
        <section aria-labelledby="binaural-heading">
          <BinauralGenerator />
        </section>
        <SoundLayers />
      </AfterFirstPaint>
    </MusicPage>
  );
}
