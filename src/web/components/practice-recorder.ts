import type { QueryClient } from '@tanstack/react-query';
import type { HistoryEntry, HistoryWrite } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';
import { soundEngine } from '@web/lib/audio/app-engine';
import { flashSessions, sessionEnds } from '@web/lib/audio/app-session-ends';
import type { EndedSession } from '@web/lib/audio/session-ends';
import { sessionStore } from '@web/lib/session';
import { layerName } from './mini-player';

// Every listening session that ends — stopped or played to its end, whichever screen started it —
// is recorded once, here (docs/product/screens.md#your-practice). A program's day that played to its
// end is also marked done. The practice, program and recommendation screens read their data again.

/** The query keys that show history or progress (the guidance feature's). */
export const PRACTICE_QUERY_KEYS = [['guidance']] as const;

/** The history entry for an ended session, or null when it lasted under a second. */
export function historyEntryOf(session: EndedSession): HistoryWrite | null {
  if (session.seconds < 1) return null;
  const track = session.layers.find((layer) => layer.source.kind === 'track')?.source;
  const trackId = track?.kind === 'track' ? track.key.split(':').at(-1) : undefined;
  const program = session.tag?.program;
  // Spoken affirmations (a 'voice' layer) and messages flashed without sound (no layer at all) count as
  // a subliminal session; generated sound as binaural.
  const spoken = session.layers.some((layer) => (layer.source.kind as string) === 'voice');
  const subliminal = spoken || session.layers.length === 0;
  const kind = program ? 'program' : track ? 'music' : subliminal ? 'subliminal' : 'binaural';
  const ref = program
    ? `program:${program.slug}/${program.day}`
    : trackId && /^\d+$/.test(trackId)
      ? `track:${trackId}`
      : (session.tag?.ref ?? '');
  const title = (session.tag?.title ?? session.layers.map(layerName).join(' + ')) || 'Listening session';
  return {
    kind,
    ref,
    title: title.slice(0, 120),
    seconds: Math.min(session.seconds, 86_400),
    finished: session.by === 'timer',
    started_at: session.startedAt.toISOString(),
  };
}

let started = false;
/** Records under way, so signing out can wait for them while its token is still good. */
const pending = new Set<Promise<unknown>>();

function record(queryClient: QueryClient, session: EndedSession) {
  if (!sessionStore.get().isAuthenticated) return;
  const entry = historyEntryOf(session);
  const program = session.tag?.program;
  const calls: Promise<unknown>[] = [];
  // keepalive: the record still goes out when the session ends because the tab closes.
  if (entry) calls.push(apiRequest<HistoryEntry>(API.history, { method: 'POST', body: entry, keepalive: true }));
  if (program && session.by === 'timer') {
    calls.push(apiRequest(fillPath(API.programDayComplete, program), { method: 'POST' }));
  }
  if (calls.length === 0) return;
  // A failed record is not worth interrupting anyone for: the session itself went fine.
  const done = Promise.allSettled(calls).then(() => {
    for (const queryKey of PRACTICE_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
  });
  pending.add(done);
  void done.finally(() => pending.delete(done));
}

/** Starts recording, once for the app's lifetime (sessions may end after the page that started them). */
export function startPracticeRecorder(queryClient: QueryClient) {
  if (started) return;
  started = true;
  sessionEnds.onEnd((session) => record(queryClient, session));
  flashSessions.onEnd((session) => record(queryClient, session));
  // Closing or leaving the tab ends what plays and what flashes: recorded like a stop.
  window.addEventListener('pagehide', () => {
    flashSessions.flush();
    sessionEnds.flush();
  });
}

/** How long signing out waits for the records of what played before it goes on regardless. */
export const SIGN_OUT_RECORD_WAIT_MS = 5000;

/**
 * Signing out ends what flashes and what plays (docs/product/screens.md#your-practice) and waits for
 * their records, sent while the person is still signed in, before the token is revoked.
 */
export async function endSessionsForSignOut(): Promise<void> {
  // The flashes first: were the sound stopped first, what flashes on would start a silent session.
  flashSessions.stop();
  soundEngine.stop();
  if (pending.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SIGN_OUT_RECORD_WAIT_MS)));
  await Promise.race([Promise.allSettled([...pending]), late]);
  clearTimeout(timer);
}
