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

// The tabs of a browser share one sign-in (lib/session.ts): a tab that signs out revokes the token the
// others record with. So before it does, it tells them (SIGN_OUT_CHANNEL), and each records what plays
// or flashes there so far, as a page going away does. A tab holds UNRECORDED_LOCK (shared) while it has
// something to record, and lets it go once told and recorded; the tab signing out waits for the lock
// (exclusive), so it knows when every tab is done without knowing how many there are
// (docs/decisions/036-a-session-is-what-plays.md). The server accepts nothing more of a revoked token.
const SIGN_OUT_CHANNEL = 'innerwave.signing-out';
const UNRECORDED_LOCK = 'innerwave.unrecorded-sessions';

let channel: BroadcastChannel | null | undefined;
/** The channel between this browser's tabs, or null where the browser has none. */
function signOutChannel(): BroadcastChannel | null {
  channel ??= typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SIGN_OUT_CHANNEL);
  return channel;
}

const locks = (): LockManager | undefined => (typeof navigator === 'undefined' ? undefined : navigator.locks);
let releaseLock: (() => void) | null = null;

/** Holds the shared lock while this tab has something to record: a session under way, or a record on its way. */
function followLock() {
  const unrecorded = soundEngine.getState().status !== 'stopped' || flashSessions.underWay() || pending.size > 0;
  const manager = locks();
  if (unrecorded && !releaseLock && manager) {
    const held = new Promise<void>((resolve) => (releaseLock = resolve));
    void manager.request(UNRECORDED_LOCK, { mode: 'shared' }, () => held);
  } else if (!unrecorded && releaseLock) {
    releaseLock();
    releaseLock = null;
  }
}

/** Another tab signs out: what plays or flashes here is recorded now, while its token is still good. */
async function recordForOtherTab() {
  flashSessions.flush();
  sessionEnds.flush();
  await Promise.allSettled([...pending]);
  // Let go, then ask again if something still plays: queued behind the signing-out tab's wait, the lock
  // is held again should that sign-out fail, and what plays on is recorded as usual.
  releaseLock?.();
  releaseLock = null;
  followLock();
}

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
  followLock();
  void done.finally(() => {
    pending.delete(done);
    followLock();
  });
}

/** Starts recording, once for the app's lifetime (sessions may end after the page that started them). */
export function startPracticeRecorder(queryClient: QueryClient) {
  if (started) return;
  started = true;
  sessionEnds.onEnd((session) => record(queryClient, session));
  flashSessions.onEnd((session) => record(queryClient, session));
  soundEngine.subscribe(followLock);
  flashSessions.subscribe(followLock);
  signOutChannel()?.addEventListener('message', () => void recordForOtherTab());
  // Closing or leaving the tab ends what plays and what flashes: recorded like a stop. A page kept in
  // the back-forward cache hears no other tab, so it lets the lock go until it shows again.
  window.addEventListener('pagehide', () => {
    flashSessions.flush();
    sessionEnds.flush();
    releaseLock?.();
    releaseLock = null;
  });
  window.addEventListener('pageshow', (event) => event.persisted && followLock());
}

/** How long signing out waits for the records of what played before it goes on regardless. */
export const SIGN_OUT_RECORD_WAIT_MS = 5000;

/**
 * Signing out ends what flashes and what plays (docs/product/screens.md#your-practice), here and in the
 * browser's other tabs, and waits for their records, sent while the person is still signed in, before
 * the token is revoked.
 */
export async function endSessionsForSignOut(): Promise<void> {
  // The flashes first: were the sound stopped first, what flashes on would start a silent session.
  flashSessions.stop();
  soundEngine.stop();
  const tabs = signOutChannel();
  const manager = tabs ? locks() : undefined;
  const giveUp = new AbortController();
  // The lock, exclusive, comes once no tab (this one included) has anything left to record. Asked for
  // before the others are told, so that a tab asking again once it has recorded queues behind it.
  const recorded = manager
    ? manager
        .request(UNRECORDED_LOCK, { mode: 'exclusive', signal: giveUp.signal }, () => undefined)
        .catch(() => undefined)
    : pending.size > 0
      ? Promise.allSettled([...pending])
      : null;
  tabs?.postMessage('signing-out');
  if (!recorded) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SIGN_OUT_RECORD_WAIT_MS)));
  await Promise.race([recorded, late]);
  clearTimeout(timer);
  giveUp.abort();
}
