import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Practice } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { pendingRecords, type PendingRecord } from '@web/lib/pending-records';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { PRACTICE_TEXTS, PracticeView } from './practice-view';

const practice: Practice = {
  week: { since: '2026-11-16T18:00:00.000Z', minutes: 12, sessions: 2, daily_minutes: [0, 0, 0, 0, 0, 2, 10] },
  total_sessions: 2,
  last_sessions: [],
  reminder: { enabled: false, time_of_day: null },
};

const jwtOf = (userId: number) => `h.${btoa(JSON.stringify({ user_id: userId })).replace(/=+$/, '')}.s`;
const signIn = (userId: number) =>
  sessionStore.setTokens({ access: jwtOf(userId), refresh: `r${userId}` }, 'x@example.com');

function kept(userId: number, key: string, waiting: boolean): PendingRecord {
  return {
    key,
    user_id: userId,
    entry: {
      kind: 'binaural',
      ref: '',
      title: 'Binaural beats',
      seconds: 600,
      finished: false,
      started_at: new Date(Date.now() - 700_000).toISOString(),
      record_key: key,
    },
    day: null,
    saved_at: Date.now() - 100_000,
    waiting,
  };
}

const waitingLine = () => screen.queryByText(/waiting to be saved/);

describe('PracticeView', () => {
  it('says quietly that sessions of this browser wait to be saved, and no more once they are sent', async () => {
    signIn(7);
    fakeApi({ [`GET ${API.practice}`]: () => practice });
    pendingRecords.add(kept(7, 'a', true));
    pendingRecords.add(kept(7, 'b', true));
    // Another person's records, and one on its first way out, are not this person's waiting ones.
    pendingRecords.add(kept(8, 'c', true));
    pendingRecords.add(kept(7, 'd', false));
    renderWithProviders(<PracticeView />);
    expect(await screen.findByText(PRACTICE_TEXTS.waiting(2))).toHaveAttribute('role', 'status');
    expect(PRACTICE_TEXTS.waiting(2)).toBe(
      '2 sessions played here are waiting to be saved. They are kept on this device and will be sent by themselves.',
    );
    await screen.findByText('The last seven days');

    act(() => pendingRecords.remove('a'));
    expect(waitingLine()).toHaveTextContent(
      '1 session played here is waiting to be saved. It is kept on this device and will be sent by itself.',
    );
    act(() => pendingRecords.remove('b'));
    expect(waitingLine()).toBeNull();
  });

  it('shows the line when the practice cannot load either, as when offline', async () => {
    signIn(7);
    fakeApi({ [`GET ${API.practice}`]: () => jsonResponse(503, { detail: 'Service unavailable.' }) });
    pendingRecords.add(kept(7, 'a', true));
    renderWithProviders(<PracticeView />);
    expect(waitingLine()).toHaveTextContent(PRACTICE_TEXTS.waiting(1));
  });

  it('follows records sent by another tab of this browser', async () => {
    signIn(7);
    fakeApi({ [`GET ${API.practice}`]: () => practice });
    pendingRecords.add(kept(7, 'a', true));
    renderWithProviders(<PracticeView />);
    await screen.findByText('The last seven days');
    expect(waitingLine()).not.toBeNull();
    // The other tab's write, as this tab's storage sees it: the same storage, then the event.
    const before = localStorage.getItem('innerwave.pending-records');
    localStorage.removeItem('innerwave.pending-records');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'innerwave.pending-records', oldValue: before }));
    });
    expect(waitingLine()).toBeNull();
  });

  it('shows nothing when no record waits', async () => {
    signIn(7);
    fakeApi({ [`GET ${API.practice}`]: () => practice });
    renderWithProviders(<PracticeView />);
    await screen.findByText('The last seven days');
    expect(waitingLine()).toBeNull();
    // The reminder's Save has its status line, silent until it saves.
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toEqual(['']);
  });
});
