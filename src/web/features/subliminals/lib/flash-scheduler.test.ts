import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFlashScheduler, type FrameClock } from './flash-scheduler';

/** requestAnimationFrame on fake timers: a frame every `frameMs`, plus optional jitter. */
function fakeFrameClock(frameMs: number, jitter: () => number = () => 0): FrameClock {
  return {
    now: () => Date.now(),
    requestFrame: (callback) => setTimeout(callback, frameMs + jitter()) as unknown as number,
    cancelFrame: (handle) => clearTimeout(handle),
  };
}

describe('startFlashScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows at once, then every displayInterval, each for flashSpeed', () => {
    const events: string[] = [];
    const start = Date.now();
    const scheduler = startFlashScheduler(
      { displayInterval: 2000, flashSpeed: 100 },
      {
        show: (slot) => events.push(`show ${slot} @${Date.now() - start}`),
        hide: () => events.push(`hide @${Date.now() - start}`),
      },
      fakeFrameClock(10),
    );
    vi.advanceTimersByTime(4500);
    scheduler.stop();
    expect(events).toEqual(['show 0 @0', 'hide @100', 'show 1 @2000', 'hide @2100', 'show 2 @4000', 'hide @4100']);
  });

  it('does not drift over an hour of jittery 16.7 ms frames', () => {
    const shows: number[] = [];
    const hides: number[] = [];
    const start = Date.now();
    let n = 0;
    const scheduler = startFlashScheduler(
      { displayInterval: 1500, flashSpeed: 50 },
      { show: () => shows.push(Date.now() - start), hide: () => hides.push(Date.now() - start) },
      fakeFrameClock(16, () => (n++ % 3 === 0 ? 1 : 0)),
    );
    vi.advanceTimersByTime(60 * 60 * 1000);
    scheduler.stop();
    expect(shows).toHaveLength(2400);
    // Each show lands within one frame of its ideal time, the last one as well as the first.
    shows.forEach((at, slot) => {
      expect(at - slot * 1500).toBeGreaterThanOrEqual(0);
      expect(at - slot * 1500).toBeLessThan(18);
    });
    hides.forEach((at, slot) => expect(at - (slot * 1500 + 50)).toBeLessThan(18));
  });

  it('skips slots missed during a stall instead of bursting', () => {
    const shows: number[] = [];
    let frames = 0;
    // The first frame after the start arrives 7 s late (a hidden tab), then every 10 ms.
    const clock: FrameClock = {
      now: () => Date.now(),
      requestFrame: (callback) => setTimeout(callback, frames++ === 0 ? 7000 : 10) as unknown as number,
      cancelFrame: (handle) => clearTimeout(handle),
    };
    const scheduler = startFlashScheduler(
      { displayInterval: 1000, flashSpeed: 100 },
      { show: (slot) => shows.push(slot), hide: () => undefined },
      clock,
    );
    vi.advanceTimersByTime(9500);
    scheduler.stop();
    expect(shows).toEqual([0, 7, 8, 9]);
  });

  it('paints every show in at least one frame when frames come slower than the flash', () => {
    // 3 frames a second (a loaded machine) against 50 ms flashes: each show is past its hide time
    // by the frame it lands in.
    const events: Array<['show' | 'hide', number]> = [];
    let frame = 0;
    const clock: FrameClock = {
      now: () => Date.now(),
      requestFrame: (callback) => setTimeout(() => (frame++, callback()), 333) as unknown as number,
      cancelFrame: (handle) => clearTimeout(handle),
    };
    const scheduler = startFlashScheduler(
      { displayInterval: 1000, flashSpeed: 50 },
      { show: () => events.push(['show', frame]), hide: () => events.push(['hide', frame]) },
      clock,
    );
    vi.advanceTimersByTime(5000);
    scheduler.stop();
    const shows = events.filter(([kind]) => kind === 'show');
    expect(shows.length).toBeGreaterThanOrEqual(4);
    // Each hide comes in a later frame than the show before it.
    events.forEach(([kind, at], index) => {
      if (kind === 'hide') expect(at).toBeGreaterThan(events[index - 1]![1]);
    });
  });

  it('stops: no more shows, and a visible message is hidden', () => {
    const show = vi.fn();
    const hide = vi.fn();
    const scheduler = startFlashScheduler(
      { displayInterval: 1000, flashSpeed: 500 },
      { show, hide },
      fakeFrameClock(10),
    );
    vi.advanceTimersByTime(200);
    scheduler.stop();
    expect(hide).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(show).toHaveBeenCalledTimes(1);
    expect(hide).toHaveBeenCalledTimes(1);
  });
});
