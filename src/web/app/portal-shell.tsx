import { PortalLayout } from '@web/components/layouts/portal-layout';
import { BinauralNowPlaying } from '@web/features/binaural/components/binaural-now-playing';

/** The signed-in frame: binaural beats play on across portal pages, with a stop bar outside /music. */
export function Component() {
  return (
    <>
      <PortalLayout />
      <BinauralNowPlaying />
    </>
  );
}
