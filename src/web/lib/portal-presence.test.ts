import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from './paths';
import { PORTAL_LEFT_MS, PortalLeftError, portalVisit, usePortalShown } from './portal-presence';
import { sessionStore } from './session';

// The portal visit a press belongs to (docs/decisions/085-a-start-belongs-to-its-press-and-its-portal-visit.md):
// what a start that waits checks before it plays.

const layout = () => renderHook(() => usePortalShown(true));

describe('portalVisit', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    sessionStore.clear();
    window.history.replaceState(null, '', '/');
  });

  it('goes on while one portal page gives way to the next', () => {
    layout().unmount();
    const visit = portalVisit();
    vi.advanceTimersByTime(PORTAL_LEFT_MS / 2);
    layout();
    vi.advanceTimersByTime(PORTAL_LEFT_MS * 2);
    expect(visit.left).toBe(false);
    expect(() => visit.check()).not.toThrow();
  });

  it('ends when no portal page has come back in time, and when the person goes to sign out', () => {
    const gone = portalVisit();
    layout().unmount();
    vi.advanceTimersByTime(PORTAL_LEFT_MS);
    expect(gone.left).toBe(true);

    const view = layout();
    const signingOut = portalVisit();
    window.history.pushState(null, '', paths.logout);
    view.unmount();
    expect(signingOut.left).toBe(true);
    expect(() => signingOut.check()).toThrow(PortalLeftError);
  });

  it('ends as soon as the session does, before the portal’s page goes, and a visit after signing in again goes on', () => {
    layout();
    const before = portalVisit();
    sessionStore.clear();
    expect(before.left).toBe(true);
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
    const after = portalVisit();
    sessionStore.reload();
    expect(after.left).toBe(false);
  });
});
