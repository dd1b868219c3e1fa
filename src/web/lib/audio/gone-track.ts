import { isolated } from '@shared/contract/plain';
import { soundEngine } from './app-engine';
import { NOT_IN_LIBRARY, NOT_IN_OWN_MUSIC } from './gone-track-text';

// A track that is no longer there while it plays from memory (docs/product/screens.md#music): staff
// removed it from a library, or the person deleted it from their music in another tab.

/**
 * Stops the track layer when it plays a track of `source` (a library's kind, or 'own' for one's own
 * music, as the engine's keys `selfeggio:3` and `own:7` name them) that `ids`, the list as just
 * fetched, no longer holds: its file is gone. Returns what to tell the person, or null when nothing
 * stopped (so a list fetched again tells it once).
 */
export function stopGoneTrack(source: string, ids: readonly number[]): string | null {
  const playing = soundEngine.getState().layers.find((layer) => layer.id === 'track')?.source;
  if (playing?.kind !== 'track') return null;
  const [kind, id] = playing.key.split(':');
  if (kind !== source || ids.includes(Number(id))) return null;
  soundEngine.removeLayer('track');
  return `${isolated(playing.title)} stopped: it is ${source === 'own' ? NOT_IN_OWN_MUSIC : NOT_IN_LIBRARY}.`;
}
