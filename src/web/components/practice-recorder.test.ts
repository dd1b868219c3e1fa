import { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HISTORY_DELETED_CODE, historyEntrySchema, replacesRecord } from '@shared/contract/guidance';
import { API, fillPath } from '@shared/contract/paths';
import { watchSessionEnds, type EndedSession } from '@web/lib/audio/session-ends';
import type { SoundEngineState } from '@web/lib/audio/sound-engine';
import { pendingRecords, retrySchedule } from '@web/lib/pending-records';
import { sessionStore } from '@web/lib/session';
import { startSessionLifecycle } from '@web/lib/session-refresh';
import { fakeLocks } from '@web/test/fake-locks';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { sessionEnds } from '@web/lib/audio/app-session-ends';
import { fakeApi, jsonResponse, type ApiCall } from '@web/test/render';
import {
  CHECKPOINT_MS,
  historyEntryOf,
  RECORD_RETRY_MAX_MS,
  RECORD_TIMEOUT_MS,
  RETRY_FIRST_MS,
  RETRY_MAX_MS,
  retryDelay,
  startPracticeRecorder,
} from './practice-recorder';

vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const startedAt = new Date('2026-11-23T18:00:00.000Z');
const session = (over: Partial<EndedSession>): EndedSession => ({
  layers: [],
  seconds: 90,
  by: 'stop',
  startedAt,
  tag: null,
  key: '5c4b3a29-1807-4f6e-9d5c-4b3a29180706',
  ...over,
});
const track = {
  id: 'track',
  source: { kind: 'track', key: 'selfeggio:12', title: '528 Hz', url: '/media/x' },
  gain: 1,
  status: 'ready',
} as const;
const binaural = {
  id: 'binaural',
  source: { kind: 'binaural', leftHz: 200, rightHz: 204 },
  gain: 0.5,
  status: 'ready',
} as const;

describe('historyEntryOf', () => {
  it('records a program day by its tag, finished when the timer ended it', () => {
    const entry = historyEntryOf(
      session({
        by: 'timer',
        layers: [binaural],
        tag: { title: 'Seven Nights of Rest · Day 2', program: { slug: 'seven-nights-of-rest', day: 2 } },
      }),
    );
    expect(entry).toEqual({
      kind: 'program',
      ref: 'program:seven-nights-of-rest/2',
      title: 'Seven Nights of Rest · Day 2',
      seconds: 90,
      finished: true,
      started_at: startedAt.toISOString(),
    });
  });

  it('names an untagged session by what played, as the mini-player does, a track isolated among the others', () => {
    const entry = historyEntryOf(session({ layers: [track, binaural] }));
    expect(entry).toMatchObject({
      kind: 'music',
      ref: 'track:12',
      title: '\u2068528 Hz\u2069 + Binaural beats · 4 Hz',
      finished: false,
    });
    expect(historyEntryOf(session({ layers: [binaural] }))).toMatchObject({ kind: 'binaural', ref: '' });
    expect(historyEntryOf(session({ layers: [track] }))).toMatchObject({ title: '528 Hz' });
  });

  it('leaves out sessions under a second; what it sends is what the contract reads back', () => {
    expect(historyEntryOf(session({ seconds: 0 }))).toBeNull();
    const entry = historyEntryOf(session({ layers: [track] }))!;
    expect(historyEntrySchema.omit({ id: true, recorded_at: true }).parse(entry)).toEqual(entry);
  });

  it('names one’s own track apart from the library track of the same id, as the contract reads both', () => {
    const own = (key: string, title: string) => ({ ...track, source: { ...track.source, key, title } });
    const library = historyEntryOf(session({ layers: [own('bonus:3', 'Rain')] }))!;
    const mine = historyEntryOf(session({ layers: [own('own:3', 'Forest walk')] }))!;
    expect([library.ref, mine.ref]).toEqual(['track:3', 'own-track:3']);
    expect(historyEntrySchema.omit({ id: true, recorded_at: true }).parse(mine)).toEqual(mine);
  });

  it('records a track that replaced another as its own entry: each title gets the time it played', () => {
    const set = (next: Partial<SoundEngineState>, at: number) => {
      fakeEngine.now = at;
      fakeEngine.set(next);
    };
    const entries: ReturnType<typeof historyEntryOf>[] = [];
    watchSessionEnds(fakeSoundEngine, () => startedAt.getTime()).onEnd((ended) => entries.push(historyEntryOf(ended)));
    const rain = { ...track, source: { ...track.source, key: 'bonus:3', title: 'Rain' } };

    set({ status: 'playing', layers: [track] }, 0);
    set({ layers: [rain] }, 600);
    set({ status: 'stopped', layers: [] }, 660);

    expect(entries.map((entry) => entry && [entry.title, entry.ref, entry.seconds])).toEqual([
      ['528 Hz', 'track:12', 600],
      ['Rain', 'track:3', 60],
    ]);
  });
});

// A record that cannot reach the server now waits in the browser, its person's, and goes once they are
// signed in here again (docs/decisions/046-a-record-that-cannot-be-sent-waits-in-the-browser.md).
describe('a record that cannot be sent now', () => {
  const jwtOf = (userId: number) => `h.${btoa(JSON.stringify({ user_id: userId })).replace(/=+$/, '')}.s`;
  const signIn = (userId: number) =>
    sessionStore.setTokens({ access: jwtOf(userId), refresh: `r${userId}` }, 'x@example.com');
  const binaural = {
    id: 'binaural',
    source: { kind: 'binaural', leftHz: 200, rightHz: 204 },
    gain: 0.5,
    status: 'ready',
  } as const;
  /** Plays binaural beats for `seconds`; `meanwhile` happens while they play. */
  function play(seconds: number, meanwhile = () => {}) {
    fakeEngine.now = 0;
    fakeEngine.set({ status: 'playing', layers: [binaural] });
    fakeEngine.now = seconds;
    meanwhile();
    fakeEngine.set({ status: 'stopped', layers: [] });
  }
  const histories = (calls: ApiCall[]) => calls.filter((call) => call.method === 'POST' && call.path === API.history);
  /** A record as it goes out: as kept, with the browser's clock as it sends (decision 054). */
  const asSent = (entry: object | null | undefined) => ({ ...entry, sent_at: expect.any(String) as string });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  beforeEach(() => {
    startPracticeRecorder(new QueryClient());
    sessionStore.clear();
  });
  afterEach(() => {
    fakeEngine.reset();
    vi.restoreAllMocks();
    Reflect.deleteProperty(navigator, 'locks');
  });

  it('is kept when the sign-in ended before the session did, and sent when the same person signs in again', async () => {
    signIn(7);
    const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(201, {}) });
    // Signed out from another browser: the session ends as the tab goes to login (session-refresh.ts).
    play(90, () => sessionStore.clear());
    await settle();
    expect(api.calls).toEqual([]);
    expect(pendingRecords.of(7)).toHaveLength(1);

    // Someone else signs in here: it is not theirs.
    signIn(8);
    await settle();
    expect(api.calls).toEqual([]);
    sessionStore.clear();

    signIn(7);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(1));
    const [sent] = histories(api.calls);
    expect(sent!.auth).toBe(`Bearer ${jwtOf(7)}`);
    expect(sent!.body).toMatchObject({
      kind: 'binaural',
      seconds: 90,
      record_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
  });

  it('is the person’s it played for when another tab signs someone else in while it plays, never sent in their session', async () => {
    signIn(7);
    const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(201, {}) });
    play(90, () => {
      // Another tab signs Ada out and Bea in, key by key, each with its storage event here.
      localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: null }));
      for (const [key, value] of [
        ['user.id', '8'],
        ['user.refresh', 'r8'],
        ['user.access', jwtOf(8)],
      ] as const) {
        localStorage.setItem(key, value);
        window.dispatchEvent(new StorageEvent('storage', { key }));
      }
    });
    await settle();
    expect(histories(api.calls)).toEqual([]);
    expect(pendingRecords.of(8)).toEqual([]);
    expect(pendingRecords.of(7)).toEqual([
      expect.objectContaining({ entry: expect.objectContaining({ seconds: 90 }) }),
    ]);
    pendingRecords.forget(7);
  });

  it('is kept when the server refuses it for a sign-in ended elsewhere (401), and sent again with the same key', async () => {
    let navigatedTo = '';
    startSessionLifecycle((to) => (navigatedTo = to))();
    vi.spyOn(toast, 'error');
    signIn(7);
    let answer = 401;
    const api = fakeApi({
      [`POST ${API.history}`]: () =>
        jsonResponse(answer, answer === 401 ? { detail: 'Token is invalid or expired' } : {}),
      [`POST ${API.tokenRefresh}`]: () => jsonResponse(401, { detail: 'Token is invalid or expired' }),
    });
    play(45);
    await vi.waitFor(() => expect(sessionStore.get().isAuthenticated).toBe(false));
    expect(navigatedTo).toMatch(/^\/login/);
    const [kept] = pendingRecords.of(7);
    expect(kept?.entry).toMatchObject({ seconds: 45, record_key: kept?.key });
    expect(histories(api.calls).map((call) => call.body)).toEqual([asSent(kept!.entry)]);

    answer = 201;
    signIn(7);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(2));
    expect(histories(api.calls)[1]!.body).toEqual(asSent(kept!.entry));
    await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
  });

  it('is kept while the network or the server is down, and sent once when the network is back', async () => {
    signIn(7);
    const answers = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => jsonResponse(503, { detail: 'A server error occurred.' }),
    ];
    let calls = 0;
    const api = fakeApi({ [`POST ${API.history}`]: () => (answers[calls++] ?? (() => jsonResponse(201, {})))() });
    play(30);
    play(40);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(2));
    await settle();
    const kept = pendingRecords.of(7);
    expect(kept.map((record) => record.entry?.seconds)).toEqual([30, 40]);

    // Back online: told twice, as a flaky connection does; each record goes once, oldest first.
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
    await settle();
    expect(
      histories(api.calls)
        .slice(2)
        .map((call) => call.body),
    ).toEqual(kept.map((record) => asSent(record.entry)));
  });

  it('goes with the next record that reaches the server', async () => {
    signIn(7);
    let down = true;
    const api = fakeApi({
      [`POST ${API.history}`]: () => (down ? jsonResponse(502, {}) : jsonResponse(201, {})),
    });
    play(30);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(1));
    await settle();
    down = false;
    play(20);
    await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
    expect(histories(api.calls).map((call) => (call.body as { seconds: number }).seconds)).toEqual([30, 20, 30]);
  });

  it('is sent by one tab at a time: one starting while another delivers sends what is left', async () => {
    signIn(7);
    fakeLocks();
    const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(503, {}) });
    play(30);
    play(40);
    await vi.waitFor(() => expect(pendingRecords.of(7)).toHaveLength(2));
    await settle();
    fakeApi({ [`POST ${API.history}`]: () => jsonResponse(201, {}) });
    const [first, second] = pendingRecords.of(7);
    // Another tab delivers: it holds the lock while it sends the first record.
    let delivered!: () => void;
    void navigator.locks.request(
      'innerwave.pending-records',
      () => new Promise<void>((resolve) => (delivered = resolve)),
    );
    window.dispatchEvent(new Event('online'));
    await settle();
    const sentHere = () => vi.mocked(fetch).mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as object);
    expect(sentHere()).toEqual([]);
    pendingRecords.remove(first!.key);
    delivered();
    await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
    expect(sentHere()).toEqual([asSent(second!.entry)]);
    expect(histories(api.calls)).toHaveLength(2);
  });

  it('is dropped when the server refuses it for good (400): sending it again would not change that', async () => {
    signIn(7);
    const api = fakeApi({
      [`POST ${API.history}`]: () => jsonResponse(400, { started_at: ['The start may not be in the future.'] }),
    });
    play(30);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(1));
    await settle();
    expect(pendingRecords.of(7)).toEqual([]);
  });

  it('is dropped quietly when the person deleted their history after it began (409), its program day still marked done', async () => {
    signIn(7);
    vi.spyOn(toast, 'error');
    // Played here before the history was deleted from another browser, and kept while offline.
    const key = '3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
    const entry = {
      kind: 'program' as const,
      ref: 'program:seven-nights-of-rest/2',
      title: 'Seven Nights of Rest · Day 2',
      seconds: 600,
      finished: true,
      started_at: startedAt.toISOString(),
      record_key: key,
    };
    const day = { slug: 'seven-nights-of-rest', day: 2 };
    pendingRecords.add({ key, user_id: 7, entry, day, saved_at: Date.now(), waiting: true });
    const api = fakeApi({
      [`POST ${API.history}`]: () =>
        jsonResponse(409, {
          detail: 'The history was deleted after this session began, so it is not added.',
          code: HISTORY_DELETED_CODE,
        }),
      [`POST ${fillPath(API.programDayComplete, day)}`]: () => jsonResponse(200, {}),
    });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST ${API.history}`,
      `POST ${fillPath(API.programDayComplete, day)}`,
    ]);
    // Once and for good: the next chance sends nothing, and nothing was said.
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(histories(api.calls)).toHaveLength(1);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('is marked waiting once a send has failed, not while on its first way out', async () => {
    signIn(7);
    let answer: () => Response | Promise<never> = () => new Promise<never>(() => {});
    const api = fakeApi({ [`POST ${API.history}`]: () => answer() });
    play(30);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(1));
    expect(pendingRecords.waitingOf(7)).toEqual([]);
    answer = () => jsonResponse(503, {});
    play(40);
    await vi.waitFor(() => expect(pendingRecords.waitingOf(7)).toHaveLength(1));
    expect(pendingRecords.waitingOf(7)[0]!.entry?.seconds).toBe(40);
    expect(pendingRecords.of(7)).toHaveLength(2);
  });

  it('is kept before it is sent: a tab closing before the answer leaves it, to go again with the same key', async () => {
    signIn(7);
    const api = fakeApi({ [`POST ${API.history}`]: () => new Promise<never>(() => {}) });
    play(30);
    await vi.waitFor(() => expect(histories(api.calls)).toHaveLength(1));
    expect(histories(api.calls).map((call) => call.body)).toEqual(
      pendingRecords.of(7).map((record) => asSent(record.entry)),
    );
  });

  // Nothing else may come (the network stays up, the server answers 5xx): it is tried again by itself
  // while a tab is open, later each time, one tab at a time.
  describe('while the server fails', () => {
    beforeEach(() => {
      vi.useFakeTimers();
      // Each wait in the middle of its quarter either side.
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
    });
    afterEach(() => vi.useRealTimers());
    const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

    it('waits 30 s, doubling up to 10 min, each wait drawn a quarter either side', () => {
      expect(retryDelay(1, 0.5)).toBe(RETRY_FIRST_MS);
      expect(retryDelay(2, 0.5)).toBe(2 * RETRY_FIRST_MS);
      expect(retryDelay(1, 0)).toBe(0.75 * RETRY_FIRST_MS);
      expect(retryDelay(1, 0.999_999)).toBeCloseTo(1.25 * RETRY_FIRST_MS, -1);
      expect(retryDelay(6, 0.5)).toBe(RETRY_MAX_MS);
      expect(retryDelay(40, 0.5)).toBe(RETRY_MAX_MS);
    });

    it('is sent again by itself after a 5xx, waiting longer each time, until it goes', async () => {
      signIn(7);
      let answer = 503;
      const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(answer, {}) });
      play(30);
      await wait(0);
      expect(histories(api.calls)).toHaveLength(1);
      expect(pendingRecords.waitingOf(7)).toHaveLength(1);

      await wait(RETRY_FIRST_MS - 1);
      expect(histories(api.calls)).toHaveLength(1);
      await wait(1);
      expect(histories(api.calls)).toHaveLength(2);
      // Failed again: twice as long.
      await wait(2 * RETRY_FIRST_MS - 1);
      expect(histories(api.calls)).toHaveLength(2);
      answer = 201;
      await wait(1);
      expect(histories(api.calls)).toHaveLength(3);
      const bodies = histories(api.calls).map((call) => call.body as { record_key: string; sent_at: string });
      expect(new Set(bodies.map((body) => body.record_key)).size).toBe(1);
      // Each says this clock as it went, for the server to set the start by (decision 054).
      expect(bodies.map((body) => Date.parse(body.sent_at) - Date.parse(bodies[0]!.sent_at))).toEqual([
        0,
        RETRY_FIRST_MS,
        3 * RETRY_FIRST_MS,
      ]);
      expect(pendingRecords.of(7)).toEqual([]);
      expect(retrySchedule.get()).toBeNull();
      await wait(60 * 60_000);
      expect(histories(api.calls)).toHaveLength(3);
    });

    it('is tried again when the server does not answer in time', async () => {
      signIn(7);
      let hang = true;
      const api = fakeApi({
        [`POST ${API.history}`]: () => (hang ? new Promise<never>(() => {}) : jsonResponse(201, {})),
      });
      play(30);
      await wait(RECORD_TIMEOUT_MS - 1);
      expect(pendingRecords.waitingOf(7)).toEqual([]);
      await wait(1);
      expect(pendingRecords.waitingOf(7)).toHaveLength(1);
      hang = false;
      await wait(RETRY_FIRST_MS);
      expect(histories(api.calls)).toHaveLength(2);
      expect(pendingRecords.of(7)).toEqual([]);
    });

    it("honours a 429's Retry-After: nothing goes before it, not even when the network comes back", async () => {
      signIn(7);
      let throttled = true;
      const api = fakeApi({
        [`POST ${API.history}`]: () =>
          throttled
            ? new Response(JSON.stringify({ detail: 'Request was throttled.' }), {
                status: 429,
                headers: { 'Content-Type': 'application/json', 'Retry-After': '300' },
              })
            : jsonResponse(201, {}),
      });
      play(30);
      await wait(0);
      window.dispatchEvent(new Event('online'));
      play(40);
      await wait(300_000 - 1);
      expect(histories(api.calls)).toHaveLength(1);
      expect(pendingRecords.waitingOf(7)).toHaveLength(2);
      throttled = false;
      await wait(1);
      expect(histories(api.calls).map((call) => (call.body as { seconds: number }).seconds)).toEqual([30, 30, 40]);
      expect(pendingRecords.of(7)).toEqual([]);
    });

    it('is not tried again once the server refused it for good (400)', async () => {
      signIn(7);
      const api = fakeApi({
        [`POST ${API.history}`]: () => jsonResponse(400, { started_at: ['The start may not be before 2000.'] }),
      });
      play(30);
      await wait(60 * 60_000);
      expect(histories(api.calls)).toHaveLength(1);
      expect(pendingRecords.of(7)).toEqual([]);
    });

    it('is tried by one tab at a time: a tab that finds another has just tried waits for the next try', async () => {
      signIn(7);
      fakeLocks();
      const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(503, {}) });
      play(30);
      await wait(0);
      // Another tab's timer came first: it holds the delivery lock as this one's try falls due.
      let delivered!: () => void;
      void navigator.locks.request(
        'innerwave.pending-records',
        () => new Promise<void>((resolve) => (delivered = resolve)),
      );
      await wait(RETRY_FIRST_MS);
      expect(histories(api.calls)).toHaveLength(1);
      // It tried, the server failed again, and it scheduled the next try.
      retrySchedule.set({ failures: 2, next_at: Date.now() + 2 * RETRY_FIRST_MS, hold: false });
      delivered();
      await wait(2 * RETRY_FIRST_MS - 1);
      expect(histories(api.calls)).toHaveLength(1);
      await wait(1);
      expect(histories(api.calls)).toHaveLength(2);
    });

    /** The history answers: the network down until `up`, then the status `statusOf` gives each record by its seconds. */
    function server(statusOf: (seconds: number) => number) {
      const state = { up: false };
      const api = fakeApi({
        [`POST ${API.history}`]: (call) => {
          if (!state.up) throw new TypeError('Failed to fetch');
          return jsonResponse(statusOf((call.body as { seconds: number }).seconds), {});
        },
      });
      return { api, state };
    }
    const secondsOf = (calls: ApiCall[]) => histories(calls).map((call) => (call.body as { seconds: number }).seconds);

    it('does not let a record the server fails on (500) hold back the newer ones: it waits on its own', async () => {
      signIn(7);
      let failing = true;
      const { api, state } = server((seconds) => (seconds === 30 && failing ? 500 : 201));
      play(30);
      play(40);
      play(50);
      await wait(0);
      expect(pendingRecords.waitingOf(7)).toHaveLength(3);
      state.up = true;
      // The next try: the oldest fails, the others go after it.
      await wait(retrySchedule.get()!.next_at - Date.now());
      expect(secondsOf(api.calls).slice(3)).toEqual([30, 40, 50]);
      expect(pendingRecords.of(7).map((record) => record.entry?.seconds)).toEqual([30]);
      expect(pendingRecords.waitingOf(7)).toHaveLength(1);
      const triedAt = Date.now();
      expect(pendingRecords.of(7)[0]).toMatchObject({ failures: 1, retry_at: triedAt + RETRY_FIRST_MS });

      // A session ending meanwhile goes at once; the one that failed waits for its own time.
      play(60);
      await wait(0);
      expect(secondsOf(api.calls).slice(6)).toEqual([60]);
      await wait(RETRY_FIRST_MS - 1);
      expect(secondsOf(api.calls)).toHaveLength(7);
      await wait(1);
      expect(secondsOf(api.calls).slice(7)).toEqual([30]);
      // Failed again: twice as long, on its own clock.
      expect(pendingRecords.of(7)[0]).toMatchObject({ failures: 2, retry_at: Date.now() + 2 * RETRY_FIRST_MS });
      failing = false;
      await wait(2 * RETRY_FIRST_MS);
      expect(secondsOf(api.calls).slice(8)).toEqual([30]);
      expect(pendingRecords.of(7)).toEqual([]);
      await wait(60 * 60_000);
      expect(secondsOf(api.calls)).toHaveLength(9);
    });

    it('tries a record the server keeps failing on at most hourly, kept until the 30-day bound', async () => {
      signIn(7);
      const { api, state } = server(() => 500);
      state.up = true;
      play(30);
      await wait(0);
      // 30 s, 1, 2, 4, 8, 16, 32 min, then hourly.
      await wait(24 * 60 * 60_000);
      const tries = secondsOf(api.calls).length;
      expect(tries).toBeGreaterThan(24);
      expect(tries).toBeLessThan(32);
      expect(retryDelay(8, 0.5, RECORD_RETRY_MAX_MS)).toBe(RECORD_RETRY_MAX_MS);
      expect(pendingRecords.waitingOf(7)).toHaveLength(1);
    });

    it('reads two 500s in a row as the server failing: the rest wait for the next try', async () => {
      signIn(7);
      const { api, state } = server(() => 500);
      play(30);
      play(40);
      play(50);
      await wait(0);
      state.up = true;
      await wait(retrySchedule.get()!.next_at - Date.now());
      expect(secondsOf(api.calls).slice(3)).toEqual([30, 40]);
      expect(retrySchedule.get()).not.toBeNull();
      expect(pendingRecords.waitingOf(7)).toHaveLength(3);
    });

    it('still holds every record back after a 429, those the server failed on too', async () => {
      signIn(7);
      let throttled = false;
      const api = fakeApi({
        [`POST ${API.history}`]: (call) =>
          throttled
            ? new Response(JSON.stringify({ detail: 'Request was throttled.' }), {
                status: 429,
                headers: { 'Content-Type': 'application/json', 'Retry-After': '3000' },
              })
            : jsonResponse((call.body as { seconds: number }).seconds === 30 ? 500 : 201, {}),
      });
      play(30);
      await wait(0);
      throttled = true;
      play(40);
      await wait(0);
      // The 500's own time comes, but the server asked everyone to wait.
      await wait(3_000_000 - 1);
      expect(secondsOf(api.calls)).toEqual([30, 40]);
      throttled = false;
      await wait(1);
      expect(secondsOf(api.calls)).toEqual([30, 40, 30, 40]);
      expect(pendingRecords.of(7).map((record) => record.entry?.seconds)).toEqual([30]);
    });

    it('is not tried while no one is signed in here; the next sign-in sends it', async () => {
      signIn(7);
      const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(503, {}) });
      play(30);
      await wait(0);
      sessionStore.clear();
      await wait(60 * 60_000);
      expect(histories(api.calls)).toHaveLength(1);
      expect(pendingRecords.of(7)).toHaveLength(1);
    });
  });

  // A page may go away without its pagehide: what plays is sent as it goes, under the key its end will have,
  // and the server keeps the longest (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
  describe('a session under way', () => {
    type Sent = { seconds: number; finished: boolean; record_key: string };
    /** The history as the server keeps it: one entry a key, the longest sent (`replacesRecord`). */
    function historyServer(answers: (() => Response | Promise<Response>)[] = []) {
      const entries = new Map<string, Sent>();
      const api = fakeApi({
        [`POST ${API.history}`]: async (call) => {
          const answer = await (answers.shift() ?? (() => jsonResponse(201, {})))();
          const sent = call.body as Sent;
          const kept = entries.get(sent.record_key);
          if (answer.ok && (!kept || replacesRecord(sent, kept))) entries.set(sent.record_key, sent);
          return answer;
        },
      });
      return { api, entries };
    }
    const sent = (calls: ApiCall[]) => histories(calls).map((call) => call.body as Sent);
    const keepalives = () =>
      vi
        .mocked(fetch)
        .mock.calls.filter(([input]) => String(input).endsWith(API.history))
        .map(([, init]) => init?.keepalive);
    /** The page is hidden (another tab, another app, the phone's screen off), or shown again. */
    function visibility(state: DocumentVisibilityState) {
      vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
      document.dispatchEvent(new Event('visibilitychange'));
    }
    function startPlaying() {
      fakeEngine.now = 0;
      fakeEngine.set({ status: 'playing', layers: [binaural] });
    }
    const stop = () => fakeEngine.set({ status: 'stopped', layers: [] });

    it('is sent so far when the page is hidden, and its end replaces that under the same key: one entry', async () => {
      signIn(7);
      const { api, entries } = historyServer();
      startPlaying();
      fakeEngine.now = 95;
      visibility('hidden');
      await vi.waitFor(() => expect(sent(api.calls)).toHaveLength(1));
      const [sofar] = sent(api.calls);
      expect(sofar).toMatchObject({
        seconds: 95,
        finished: false,
        record_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      // It outlives the page, as a record sent at pagehide does.
      expect(keepalives()).toEqual([true]);
      await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
      // Shown and hidden again with nothing more heard (paused): nothing more to say.
      fakeEngine.set({ status: 'paused' });
      visibility('visible');
      visibility('hidden');
      await settle();
      expect(sent(api.calls)).toHaveLength(1);

      visibility('visible');
      fakeEngine.set({ status: 'playing' });
      fakeEngine.now = 300;
      stop();
      await vi.waitFor(() => expect(sent(api.calls)).toHaveLength(2));
      expect(sent(api.calls)[1]).toMatchObject({ seconds: 300, record_key: sofar!.record_key });
      expect([...entries.values()]).toEqual([expect.objectContaining({ seconds: 300 })]);
      await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
      // Ended, it is not sent again when the page is hidden.
      visibility('hidden');
      await settle();
      expect(sent(api.calls)).toHaveLength(2);
    });

    it('is sent every minute while it is heard, not while paused, and not once it has ended', async () => {
      vi.useFakeTimers();
      try {
        signIn(7);
        const { api, entries } = historyServer();
        startPlaying();
        fakeEngine.now = 60;
        await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        fakeEngine.now = 120;
        await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        expect(sent(api.calls).map((body) => body.seconds)).toEqual([60, 120]);
        fakeEngine.set({ status: 'paused' });
        await vi.advanceTimersByTimeAsync(2 * CHECKPOINT_MS);
        expect(sent(api.calls)).toHaveLength(2);
        fakeEngine.set({ status: 'playing' });
        fakeEngine.now = 150;
        stop();
        await vi.advanceTimersByTimeAsync(10 * CHECKPOINT_MS);
        expect(sent(api.calls).map((body) => body.seconds)).toEqual([60, 120, 150]);
        expect(new Set(sent(api.calls).map((body) => body.record_key)).size).toBe(1);
        expect([...entries.values()].map((entry) => entry.seconds)).toEqual([150]);
      } finally {
        vi.useRealTimers();
      }
    });

    // docs/decisions/096-a-refused-save-keeps-its-draft-and-a-refused-record-stops.md
    it('is no longer sent once the server refused it for good, the history deleted since it began: its day is still marked done', async () => {
      vi.useFakeTimers();
      try {
        signIn(7);
        const day = { slug: 'seven-nights-of-rest', day: 2 };
        let deleted = false;
        const api = fakeApi({
          [`POST ${API.history}`]: () =>
            deleted
              ? jsonResponse(409, {
                  detail: 'The history was deleted after this session began, so it is not added.',
                  code: HISTORY_DELETED_CODE,
                })
              : jsonResponse(201, {}),
          [`POST ${fillPath(API.programDayComplete, day)}`]: () => jsonResponse(200, {}),
        });
        sessionEnds.tag({ title: 'Seven Nights of Rest · Day 2', program: day });
        startPlaying();
        fakeSoundEngine.setSleepTimer(300);
        fakeEngine.now = 60;
        await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        // Deleted from the profile, here or in another browser, while the day plays on.
        deleted = true;
        for (const now of [120, 180, 240]) {
          fakeEngine.now = now;
          await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        }
        visibility('hidden');
        await vi.advanceTimersByTimeAsync(0);
        expect(sent(api.calls).map((body) => body.seconds)).toEqual([60, 120]);
        // Played to its end: the day is done, and nothing more is said of the session.
        fakeEngine.now = 300;
        await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        expect(fakeEngine.state.status).toBe('stopped');
        expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
          `POST ${API.history}`,
          `POST ${API.history}`,
          `POST ${fillPath(API.programDayComplete, day)}`,
        ]);
        expect(pendingRecords.of(7)).toEqual([]);

        // The next session is its own: sent as it goes (refused too, as it began before the deletion here).
        deleted = false;
        startPlaying();
        fakeEngine.now = 60;
        await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        expect(sent(api.calls).map((body) => body.seconds)).toEqual([60, 120, 60]);
        stop();
        await vi.advanceTimersByTimeAsync(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it('is no longer sent once the server refused a record of it as one it will never take (400)', async () => {
      vi.useFakeTimers();
      try {
        signIn(7);
        const api = fakeApi({
          [`POST ${API.history}`]: () =>
            jsonResponse(400, { title: ['Ensure this field has no more than 120 characters.'] }),
        });
        startPlaying();
        for (const now of [60, 120, 180]) {
          fakeEngine.now = now;
          await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        }
        stop();
        await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        expect(sent(api.calls).map((body) => body.seconds)).toEqual([60]);
        expect(pendingRecords.of(7)).toEqual([]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('is still sent as it goes after a failure that may pass: a 5xx, the network down', async () => {
      vi.useFakeTimers();
      try {
        signIn(7);
        const { api, entries } = historyServer([
          () => jsonResponse(500, {}),
          () => jsonResponse(503, {}),
          () => Promise.reject(new TypeError('Failed to fetch')),
        ]);
        startPlaying();
        for (const now of [60, 120, 180, 240]) {
          fakeEngine.now = now;
          await vi.advanceTimersByTimeAsync(CHECKPOINT_MS);
        }
        fakeEngine.now = 250;
        stop();
        await vi.advanceTimersByTimeAsync(0);
        // Each length went out as it was heard (some again, as their records waited and were tried again).
        expect(sent(api.calls).map((body) => body.seconds)).toEqual(expect.arrayContaining([60, 120, 180, 240, 250]));
        expect([...entries.values()].map((entry) => entry.seconds)).toEqual([250]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('lets a longer record kept meanwhile stand when an earlier one of it is answered late', async () => {
      signIn(7);
      let answerSofar!: () => void;
      const { api, entries } = historyServer([
        () => new Promise<Response>((resolve) => (answerSofar = () => resolve(jsonResponse(201, {})))),
        () => jsonResponse(503, {}),
      ]);
      startPlaying();
      fakeEngine.now = 95;
      visibility('hidden');
      await vi.waitFor(() => expect(sent(api.calls)).toHaveLength(1));
      // The end goes while what was sent on hiding is still on its way; the server is down a moment.
      fakeEngine.now = 300;
      stop();
      await vi.waitFor(() => expect(pendingRecords.waitingOf(7)).toHaveLength(1));
      answerSofar();
      // The end is not taken for answered: it goes after, and the server keeps it.
      await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
      expect(sent(api.calls).map((body) => body.seconds)).toEqual([95, 300, 300]);
      expect([...entries.values()].map((entry) => entry.seconds)).toEqual([300]);
    });

    it('waits in the browser replaced by its longer record, still waiting, and goes once as that', async () => {
      signIn(7);
      let up = false;
      const { api, entries } = historyServer();
      const handler = vi.mocked(fetch).getMockImplementation()!;
      vi.mocked(fetch).mockImplementation((input, init) => {
        if (!up) return Promise.reject(new TypeError('Failed to fetch'));
        return handler(input, init);
      });
      startPlaying();
      fakeEngine.now = 95;
      visibility('hidden');
      await vi.waitFor(() => expect(pendingRecords.waitingOf(7)).toHaveLength(1));
      fakeEngine.now = 300;
      stop();
      // One record of the session, its end, marked waiting all along.
      expect(pendingRecords.waitingOf(7).map((record) => record.entry?.seconds)).toEqual([300]);
      await settle();
      up = true;
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(pendingRecords.of(7)).toEqual([]));
      await settle();
      expect(sent(api.calls).map((body) => body.seconds)).toEqual([300]);
      expect([...entries.values()].map((entry) => entry.seconds)).toEqual([300]);
    });

    it('is the person’s it played for: another signing in here starts a session of their own, under a key of its own', async () => {
      signIn(7);
      const { api } = historyServer();
      startPlaying();
      fakeEngine.now = 95;
      visibility('hidden');
      await vi.waitFor(() => expect(sent(api.calls)).toHaveLength(1));
      const [ada] = sent(api.calls);
      visibility('visible');
      fakeEngine.now = 120;
      // Another person signs in (here, or in another tab): what played so far was Ada's, kept for her.
      signIn(8);
      fakeEngine.now = 200;
      visibility('hidden');
      await vi.waitFor(() => expect(sent(api.calls)).toHaveLength(2));
      const bea = histories(api.calls)[1]!;
      expect(bea.auth).toBe(`Bearer ${jwtOf(8)}`);
      expect(bea.body).toMatchObject({ seconds: 80 });
      expect((bea.body as Sent).record_key).not.toBe(ada!.record_key);
      expect(pendingRecords.of(7)).toEqual([
        expect.objectContaining({ key: ada!.record_key, entry: expect.objectContaining({ seconds: 120 }) }),
      ]);
      expect(histories(api.calls).map((call) => call.auth)).toEqual([`Bearer ${jwtOf(7)}`, `Bearer ${jwtOf(8)}`]);
      stop();
      pendingRecords.forget(7);
      await vi.waitFor(() => expect(pendingRecords.of(8)).toEqual([]));
    });
  });
});
