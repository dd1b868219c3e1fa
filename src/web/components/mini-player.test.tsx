import { cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { soundEngine } from '@web/lib/audio/app-engine';
import { sessionStore } from '@web/lib/session';
import { PORTAL_LEFT_MS, usePortalShown } from '@web/lib/portal-presence';
import { MiniPlayer } from './mini-player';

/** A portal layout, with its mini-player. */
function Layout() {
  usePortalShown(true);
  return <MiniPlayer />;
}

const player = () =>
  render(
    <MemoryRouter>
      <Layout />
    </MemoryRouter>,
  );

describe('MiniPlayer: the sound stops when the portal is left', () => {
  let stop: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.useFakeTimers();
    stop = vi.spyOn(soundEngine, 'stop').mockImplementation(() => undefined);
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
    sessionStore.clear();
  });

  it('keeps playing when one layout’s player gives way to the next (a shared link’s page → /subliminals)', () => {
    player().unmount();
    vi.advanceTimersByTime(PORTAL_LEFT_MS / 2);
    player();
    vi.advanceTimersByTime(PORTAL_LEFT_MS * 2);
    expect(stop).not.toHaveBeenCalled();
  });

  it('stops once no player has come back in time (a page outside the portal)', () => {
    player().unmount();
    vi.advanceTimersByTime(PORTAL_LEFT_MS - 1);
    expect(stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('stops at once on signing out', () => {
    const view = player();
    sessionStore.clear();
    view.unmount();
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
