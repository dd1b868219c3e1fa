import type { QueryClient } from '@tanstack/react-query';
import type { HistoryEntry, HistoryWrite } from '@shared/contract';
import { isolated } from '@shared/contract/plain';
import { HISTORY_DELETED_CODE } from '@shared/contract/portal-plain';
import { API, fillPath } from '@shared/contract/paths';
import { ApiError, apiRequest, endedTheSession, isNetworkFailure, isTimeout, retryAfterMs } from '@web/lib/api-client';
import { soundEngine } from '@web/lib/audio/app-engine';
import { flashSessions, sessionEnds } from '@web/lib/audio/app-session-ends';
import type { EndedSession } from '@web/lib/audio/session-ends';
import { pendingRecords, retrySchedule, subscribePendingRecords, type PendingRecord } from '@web/lib/pending-records';
import { sessionStore } from '@web/lib/session';
import { layerName } from './mini-player';

// Every listening session that ends — stopped or played to its end, whichever screen started it —
// is recorded once, here (docs/product/screens.md#your-practice). A program's day that played to its
// end is also marked done. The practice, program and recommendation screens read their data again.

/** The query keys that show history or progress (the guidance feature's). */
export const PRACTICE_QUERY_KEYS = [['guidance']] as const;

/**
 * The layers that played, by name: "528 Hz + Binaural beats · 4 Hz". A track's name, the library's or the person's
 * own, is isolated among the others (decision 064); alone it is the title, shown in its own box.
 */
const layersTitle = (layers: EndedSession['layers']) =>
  layers
    .map((layer) =>
      layers.length > 1 && layer.source.kind === 'track' ? isolated(layerName(layer)) : layerName(layer),
    )
    .join(' + ');

/** The history entry for an ended session, or null when it lasted under a second. */
export function historyEntryOf(session: EndedSession): HistoryWrite | null {
  if (session.seconds < 1) return null;
  const track = session.layers.find((layer) => layer.source.kind === 'track')?.source;
  // The engine's key names the track's library (`selfeggio:3`) or the person's own music (`own:3`): the ids are
  // apart, so an own track is its own ref (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md).
  const [, trackList, trackId] = (track?.kind === 'track' && /^([a-z]+):(\d+)$/.exec(track.key)) || [];
  const program = session.tag?.program;
  // Spoken affirmations (a 'voice' layer) and messages flashed without sound (no layer at all) count as
  // a subliminal session; generated sound as binaural.
  const spoken = session.layers.some((layer) => (layer.source.kind as string) === 'voice');
  const subliminal = spoken || session.layers.length === 0;
  const kind = program ? 'program' : track ? 'music' : subliminal ? 'subliminal' : 'binaural';
  const ref = program
    ? `program:${program.slug}/${program.day}`
    : trackId
      ? `${trackList === 'own' ? 'own-track' : 'track'}:${trackId}`
      : (session.tag?.ref ?? '');
  const title = (session.tag?.title ?? layersTitle(session.layers)) || 'Listening session';
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
const inFlight = new Set<Promise<unknown>>();

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
  const unrecorded = soundEngine.getState().status !== 'stopped' || flashSessions.underWay() || inFlight.size > 0;
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
  await Promise.allSettled([...inFlight]);
  // Let go, then ask again if something still plays: queued behind the signing-out tab's wait, the lock
  // is held again should that sign-out fail, and what plays on is recorded as usual.
  releaseLock?.();
  releaseLock = null;
  followLock();
}

// A record that cannot reach the server now is kept in this browser, the person's whose session it was,
// and sent once they are signed in here again (docs/decisions/046-a-record-that-cannot-be-sent-waits-in-the-browser.md):
// their sign-in ended from elsewhere (sign out everywhere else, a new password) revokes the token while
// sessions play here, and the network or the server may be down. Each record is kept before it is sent
// (a tab that closes never learns whether it arrived) and taken out once answered; its record_key makes
// the server record it once, however often it goes out.

/** Whose sessions end in this tab: the person signed in, or once their sign-in has ended, them still. */
let owner: number | null = null;
/** Keys of the records this tab is sending now, so that a delivery does not send them a second time. */
const sending = new Set<string>();
const DELIVERY_LOCK = 'innerwave.pending-records';

/** Whether a failed record is worth sending again later: the sign-in ended, the network or the server is down. */
function worthAgain(error: unknown): boolean {
  if (isNetworkFailure(error) || isTimeout(error)) return true;
  return (
    error instanceof ApiError &&
    (error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500)
  );
}

/**
 * 'kept': it waits with the rest (the network, the sign-in or the server as a whole is down); 'postponed':
 * the server failed on it (a 500) and it waits on its own while the others go.
 */
type Outcome = 'recorded' | 'kept' | 'postponed' | 'refused';

/**
 * A 5xx the server gave this record rather than every call: not its gateway's 502/504 nor a 503 (down,
 * busy), which say the server cannot be reached at all.
 */
const failedOnIt = (error: unknown) =>
  error instanceof ApiError && error.status >= 500 && ![502, 503, 504].includes(error.status);

/**
 * The server keeps out a session begun before the person last deleted their history (deleted from
 * another browser while this record waited): it is settled, never to be added, and the person is told
 * nothing (docs/decisions/054-a-deleted-history-stays-deleted.md).
 */
const historyDeletedSince = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 409 &&
  (error.body as { code?: unknown } | null)?.code === HISTORY_DELETED_CODE;

/**
 * Sessions under way in this tab whose record the server refused for good: the history deleted after it began
 * (409 history_deleted), or any other 4xx but 401, 408 and 429, which the next record of the session would meet
 * alike. What plays on is not sent again, as it goes or at its end; a program day it plays to its end is still
 * marked done. A network failure, a 401, 408, 429 or 5xx leaves it sent as before
 * (docs/decisions/096-a-refused-save-keeps-its-draft-and-a-refused-record-stops.md).
 */
const refusedUnderWay = new Set<string>();

/** The server answered the record and would answer it, and the session's later records, the same again. */
const refusedForGood = (error: unknown) => error instanceof ApiError && !worthAgain(error);

/** A call not answered within this long is given up, as if the connection were lost: the record waits. */
export const RECORD_TIMEOUT_MS = 30_000;

/** Calls the API, giving up after RECORD_TIMEOUT_MS: a call left hanging would hold the delivery's lock. */
const timed = <T>(path: string, options: Parameters<typeof apiRequest>[1]) =>
  apiRequest<T>(path, { ...options, timeoutMs: RECORD_TIMEOUT_MS });

// Records that wait are tried again by themselves while a tab of the browser is open (decision 046):
// 30 s after a failed try, the wait doubling after each failure in a row up to 10 min, each wait drawn
// a quarter either side so that tabs and people the server turned away do not all come back at once. A
// 429 or 503's Retry-After is honoured (up to an hour), and after a 429 nothing goes before it. The
// schedule is shared by the tabs (lib/pending-records.ts): each arms a timer for it, and the first to
// take the delivery lock when it is due tries; the others find it moved on and wait again.

export const RETRY_FIRST_MS = 30_000;
export const RETRY_MAX_MS = 10 * 60_000;
/**
 * The longest wait of a record the server fails on alone (a 500): tried again from 30 s on, at most
 * hourly, until it goes or the 30-day bound drops it (docs/decisions/057-a-record-the-server-fails-on-waits-alone.md).
 */
export const RECORD_RETRY_MAX_MS = 60 * 60_000;
/** The longest Retry-After honoured: a larger one, or a date far ahead, does not stop the records for good. */
export const RETRY_AFTER_MAX_MS = 60 * 60_000;

/** The wait before the next try after `failures` failed in a row, `random` in [0, 1) placing it in its quarter either side. */
export function retryDelay(failures: number, random = Math.random(), longest = RETRY_MAX_MS): number {
  const wait = Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), longest);
  return Math.round(wait * (0.75 + random / 2));
}

/** A try failed and the record waits: the next one is scheduled, later than the last. */
function scheduleRetry(error: unknown, now = Date.now()) {
  const failures = (retrySchedule.get()?.failures ?? 0) + 1;
  const asked = Math.min(retryAfterMs(error, now), RETRY_AFTER_MAX_MS);
  const throttled = error instanceof ApiError && error.status === 429;
  retrySchedule.set({ failures, next_at: now + Math.max(retryDelay(failures), asked), hold: throttled });
}

/** The server asked to wait (429) and the time has not come: nothing is sent. */
function heldBack(now = Date.now()): boolean {
  const schedule = retrySchedule.get();
  return schedule !== null && schedule.hold && schedule.next_at > now;
}

/** Sends a record kept: taken out once recorded, or refused for good (a program gone, a start the server refuses). */
async function send(record: Pick<PendingRecord, 'key' | 'entry' | 'day'>, keepalive: boolean): Promise<Outcome> {
  sending.add(record.key);
  try {
    // keepalive: the record still goes out when the session ends because the tab closes.
    // This clock as it sends: the server moves the start by how far it is from its own (decision 054).
    const body = record.entry && { ...record.entry, sent_at: new Date().toISOString() };
    if (body)
      await timed<HistoryEntry>(API.history, { method: 'POST', body, keepalive }).catch((error: unknown) => {
        if (refusedForGood(error) && checkpointed.has(record.key)) refusedUnderWay.add(record.key);
        // A day played to its end is still done: deleting the history keeps program progress.
        if (!historyDeletedSince(error)) throw error;
      });
    if (record.day) await timed(fillPath(API.programDayComplete, record.day), { method: 'POST', keepalive });
    pendingRecords.remove(record.key, record.entry);
    retrySchedule.clear();
    return 'recorded';
  } catch (error) {
    if (failedOnIt(error)) {
      pendingRecords.postpone(record.key, (failures) => retryDelay(failures, Math.random(), RECORD_RETRY_MAX_MS));
      return 'postponed';
    }
    if (worthAgain(error)) {
      pendingRecords.markWaiting(record.key);
      // A sign-in that has ended waits for the next one (which sends at once), not for a timer.
      if (!endedTheSession(error)) scheduleRetry(error);
      return 'kept';
    }
    // The server answered, and would answer the same again (any other 4xx): dropped, as decision 046 says.
    pendingRecords.remove(record.key, record.entry);
    retrySchedule.clear();
    return 'refused';
  } finally {
    sending.delete(record.key);
  }
}

/** Whether the person whose record it is is the one signed in, so it goes out with their token. */
const signedInAs = (userId: number) => sessionStore.get().isAuthenticated && sessionStore.get().id === userId;

/** Holds a call until it settles, so signing out waits for it (and the lock says this tab has something to record). */
function track(call: Promise<unknown>) {
  inFlight.add(call);
  followLock();
  void call.finally(() => {
    inFlight.delete(call);
    followLock();
  });
}

/**
 * Sends the signed-in person's records kept in this browser, oldest first, until one cannot go (offline,
 * signed out, the server down): the rest wait with it. A record the server fails on (a 500) waits on its
 * own and the next goes; a second in a row says the server fails, and the rest wait for the next try.
 * One tab at a time, so two tabs starting together do not both send the same records (the server would
 * record them once anyway).
 */
function deliverPending(queryClient: QueryClient, retrying = false): Promise<void> {
  const { id, isAuthenticated } = sessionStore.get();
  if (!isAuthenticated || id === null || pendingRecords.of(id).length === 0) return Promise.resolve();
  const run = async () => {
    // The timer's try: another tab took the lock first and tried (the schedule moved on). Any try: the
    // server asked to wait.
    const schedule = retrySchedule.get();
    if (schedule && schedule.next_at > Date.now() && (retrying || schedule.hold)) {
      armRetry();
      return;
    }
    let recorded = false;
    let postponed = false;
    for (const record of pendingRecords.of(id)) {
      if (!signedInAs(id)) break;
      // Sent meanwhile, by this tab (a record it has just made, another delivery) or another.
      const kept = pendingRecords.of(id).find((other) => other.key === record.key);
      if (sending.has(record.key) || !kept) continue;
      // The server failed on it alone: it waits for its own time.
      if (kept.retry_at !== undefined && kept.retry_at > Date.now()) continue;
      const outcome = await send(kept, false);
      if (outcome === 'kept') break;
      if (outcome === 'postponed' && postponed) {
        scheduleRetry(null);
        break;
      }
      postponed = outcome === 'postponed';
      recorded ||= outcome === 'recorded';
    }
    if (recorded) for (const queryKey of PRACTICE_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
  };
  const manager = locks();
  const delivery = manager ? manager.request(DELIVERY_LOCK, run).then(() => undefined) : run();
  track(delivery);
  return delivery;
}

/**
 * When the next try is due, or null when none is: the shared schedule's time, but not before some record
 * may go (each postponed one waits for its own `retry_at`); without a shared schedule, the first
 * postponed record's time.
 */
function nextTryAt(): number | null {
  const { id, isAuthenticated } = sessionStore.get();
  const records = isAuthenticated && id !== null ? pendingRecords.of(id) : [];
  if (records.length === 0) return null;
  const schedule = retrySchedule.get();
  if (schedule) return Math.max(schedule.next_at, Math.min(...records.map((record) => record.retry_at ?? 0)));
  const postponed = records.flatMap((record) => (record.retry_at === undefined ? [] : [record.retry_at]));
  return postponed.length > 0 ? Math.min(...postponed) : null;
}

let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** When this tab's timer fires, or null when none is armed. */
let retryArmedAt: number | null = null;
let recorderClient: QueryClient | null = null;

/**
 * Arms this tab's timer for the next try while the person signed in has records waiting and a try is
 * scheduled; called whenever the records, the schedule or the sign-in change, here or in another tab.
 */
function armRetry() {
  const due = nextTryAt();
  if (due === retryArmedAt) return;
  clearTimeout(retryTimer);
  retryArmedAt = due;
  if (due === null || !recorderClient) return;
  const client = recorderClient;
  retryTimer = setTimeout(
    () => {
      retryArmedAt = null;
      void deliverPending(client, true);
    },
    Math.max(0, due - Date.now()),
  );
}

/**
 * Records a session that ended, or what a session under way has played so far (`sofar`): under its own key
 * either way, so the server keeps one entry of it, the longest it was sent (decision 090). A session the server
 * refused for good (`refused`) sends only a program day it played to its end.
 */
function record(queryClient: QueryClient, session: EndedSession, sofar = false, refused = false) {
  const entry = refused ? null : historyEntryOf(session);
  const program = session.tag?.program;
  const day = program && session.by === 'timer' ? { slug: program.slug, day: program.day } : null;
  if (!entry && !day) return;
  const { key } = session;
  const outgoing = { key, entry: entry && { ...entry, record_key: key }, day };
  // Kept for the person signed in, or for the one whose sign-in has just ended (the sound stops as they
  // are sent to login). One whose id the browser cannot read from the token is sent to, never kept for.
  if (owner !== null) pendingRecords.add({ ...outgoing, user_id: owner, saved_at: Date.now() });
  // Sent only in its person's session: another signed in from another tab meanwhile is not them.
  if (owner === null ? !sessionStore.get().isAuthenticated : !signedInAs(owner)) return;
  // The server asked to wait: it waits with the others, for the time it was given.
  if (owner !== null && heldBack()) return pendingRecords.markWaiting(key);
  // A failed record is not worth interrupting anyone for: the session itself went fine, and it waits here.
  const done = send(outgoing, true).then((outcome) => {
    // What plays so far changes no page: the history is read again once the session ends.
    if (!sofar) for (const queryKey of PRACTICE_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
    // It went through: others kept while the network or the server was down go now too.
    if (outcome === 'recorded') void deliverPending(queryClient);
  });
  track(done);
}

// A page closed, reloaded or killed may never run its `pagehide`, or its request may never leave: a
// phone puts a page away and drops it later without a word, a busy machine closes a tab before its last
// task runs. So what plays or flashes is also sent as it goes, under the key its end will have: when the
// page is hidden (the last moment a phone reliably gives) and every CHECKPOINT_MS while it goes on. The
// server keeps one entry for the key, the longest sent, so the end replaces it
// (docs/decisions/090-a-session-is-recorded-as-it-goes.md).

/** How often what plays or flashes is sent while it goes on: at most this much of it is lost with a killed page. */
export const CHECKPOINT_MS = 60_000;
/** Seconds last sent of each session under way, by its key: one that has not moved on (paused) is not sent again. */
const checkpointed = new Map<string, number>();

/** Sends what plays and what flashes so far, each that has moved on since it was last sent. */
function checkpoint(queryClient: QueryClient) {
  for (const session of [sessionEnds.sofar(), flashSessions.sofar()]) {
    if (!session || refusedUnderWay.has(session.key)) continue;
    if (session.seconds <= (checkpointed.get(session.key) ?? 0)) continue;
    checkpointed.set(session.key, session.seconds);
    record(queryClient, session, true);
  }
}

let checkpointTimer: ReturnType<typeof setInterval> | undefined;
/** Keeps the checkpoints' timer while something plays or flashes, and none otherwise. */
function followCheckpoints(queryClient: QueryClient) {
  const underWay = soundEngine.getState().status !== 'stopped' || flashSessions.underWay();
  if (underWay && checkpointTimer === undefined)
    checkpointTimer = setInterval(() => checkpoint(queryClient), CHECKPOINT_MS);
  else if (!underWay && checkpointTimer !== undefined) {
    clearInterval(checkpointTimer);
    checkpointTimer = undefined;
  }
}

/** A session has ended: recorded (unless refused for good while it played), and no longer sent as it goes. */
function ended(queryClient: QueryClient, session: EndedSession) {
  checkpointed.delete(session.key);
  record(queryClient, session, false, refusedUnderWay.delete(session.key));
}

/** Starts recording, once for the app's lifetime (sessions may end after the page that started them). */
export function startPracticeRecorder(queryClient: QueryClient) {
  if (started) return;
  started = true;
  recorderClient = queryClient;
  // The person signed in is whose sessions end here from now on; a person who signs in (again) here
  // has their records kept from before sent.
  let signedIn = sessionStore.get().isAuthenticated;
  const followOwner = () => {
    const { id, isAuthenticated } = sessionStore.get();
    const signingIn = isAuthenticated && (!signedIn || id !== owner);
    signedIn = isAuthenticated;
    if (!signingIn) return;
    // Another person signed in from another tab while something plays or flashes here: what it played so far was
    // the last person's, recorded for them; what goes on counts for the new one.
    if (owner !== null && id !== owner) {
      flashSessions.flush();
      sessionEnds.flush();
    }
    owner = id;
    void deliverPending(queryClient);
  };
  sessionStore.subscribe(followOwner);
  sessionStore.subscribe(armRetry);
  subscribePendingRecords(armRetry);
  armRetry();
  owner = sessionStore.get().id;
  void deliverPending(queryClient);
  window.addEventListener('online', () => void deliverPending(queryClient));
  sessionEnds.onEnd((session) => ended(queryClient, session));
  flashSessions.onEnd((session) => ended(queryClient, session));
  soundEngine.subscribe(followLock);
  flashSessions.subscribe(followLock);
  soundEngine.subscribe(() => followCheckpoints(queryClient));
  flashSessions.subscribe(() => followCheckpoints(queryClient));
  followCheckpoints(queryClient);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') checkpoint(queryClient);
  });
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
    : inFlight.size > 0
      ? Promise.allSettled([...inFlight])
      : null;
  // Told only once the browser has queued that request: a query goes to the lock manager the way the request went
  // and is answered after it, where the channel's message could overtake it, and a tab done recording, asking again
  // at once, got the lock first and held it while it played on: signing out waited out SIGN_OUT_RECORD_WAIT_MS.
  if (manager) await manager.query().catch(() => undefined);
  tabs?.postMessage('signing-out');
  if (!recorded) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SIGN_OUT_RECORD_WAIT_MS)));
  await Promise.race([recorded, late]);
  clearTimeout(timer);
  giveUp.abort();
}
