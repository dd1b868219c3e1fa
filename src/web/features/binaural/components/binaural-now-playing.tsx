import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { AudioLines, Square } from 'lucide-react';
import { beatHz } from '@shared/binaural';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { binauralEngine } from '../lib/app-engine';
import { useBinauralEngineState } from '../hooks/use-binaural-generator';

/**
 * Mounted with the portal: while beats play and the person is on another portal page, a small
 * bar says so and offers Stop. Leaving the portal (signing out, a lapsed session) stops the sound.
 */
export function BinauralNowPlaying() {
  const state = useBinauralEngineState();
  const { pathname } = useLocation();

  useEffect(() => () => binauralEngine.stop(), []);

  if (state.status !== 'playing' || pathname.replace(/\/+$/, '') === paths.music) return null;
  const beat = beatHz(state.settings.leftHz, state.settings.rightHz);
  return (
    <aside
      aria-label="Binaural beats"
      className="fixed bottom-4 right-4 z-40 flex items-center gap-3 rounded-full border border-line bg-surface-raised py-1.5 pl-4 pr-1.5 shadow-lg"
    >
      <AudioLines aria-hidden className="h-4 w-4 text-accent-strong dark:text-accent" />
      <Link to={paths.music} className="text-sm font-medium text-fg hover:underline">
        Binaural beats playing · {beat} Hz
      </Link>
      <Button variant="secondary" size="sm" onClick={() => binauralEngine.stop()}>
        <Square aria-hidden className="h-3.5 w-3.5" />
        Stop
      </Button>
    </aside>
  );
}
