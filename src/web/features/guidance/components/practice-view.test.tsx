import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { Practice } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { pendingRecords, type PendingRecord } from '@web/lib/pending-records';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { PRACTICE_TEXTS, PracticeView } from './practice-view';
import { everyElementShown } from '@web/test/shown';

const practice: Practice = {
  week: {
    since: '2026-11-16T18:00:00.000Z',
    minutes: 12,
    sessions: 2,
    daily_minutes: [0, 0, 0, 0, 0, 2, 10],
    daily_seconds: [0, 0, 0, 0, 0, 130, 610],
  },
  total_sessions: 2,
  last_sessions: [],
  tries_not_listed: 0,
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

  it('says the week came to under a minute when its sessions did, and 0 minutes only when there were none', async () => {
    const week = (sessions: number) => ({
      ...practice,
      week: {
        ...practice.week,
        minutes: 0,
        sessions,
        daily_minutes: [0, 0, 0, 0, 0, 0, 0],
        daily_seconds: [0, 0, 0, 0, 0, 0, sessions ? 20 : 0],
      },
    });
    fakeApi({ [`GET ${API.practice}`]: () => week(1) });
    const short = renderWithProviders(<PracticeView />);
    const card = await screen.findByRole('region', { name: 'The last seven days' });
    expect(card).toHaveTextContent('Under a minute1 session');
    // The figure, not "0 minutes"; the days' bars below are read out each in the same words.
    expect(card.textContent).toMatch(/^The last seven daysUnder a minute1 session/);
    short.unmount();

    fakeApi({ [`GET ${API.practice}`]: () => week(0) });
    renderWithProviders(<PracticeView />);
    expect(await screen.findByRole('region', { name: 'The last seven days' })).toHaveTextContent(
      '0 minutesNo sessions in the last seven days.',
    );
  });

  it('takes the reminder’s failure toast away once Save reminder, pressed again, works (decision 150)', async () => {
    signIn(7);
    const user = userEvent.setup();
    let failing = true;
    fakeApi({
      [`GET ${API.practice}`]: () => practice,
      [`PUT ${API.reminders}`]: ({ body }) => (failing ? jsonResponse(503, null) : jsonResponse(200, body)),
    });
    const error = vi.spyOn(toast, 'error');
    const dismiss = vi.spyOn(toast, 'dismiss');
    try {
      renderWithProviders(<PracticeView />);
      await user.click(await screen.findByRole('button', { name: 'Save reminder' }));
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith(PRACTICE_TEXTS.reminderFailed));
      const failed = error.mock.results[0]!.value as string | number;
      expect(dismiss).not.toHaveBeenCalledWith(failed);
      failing = false;
      await user.click(screen.getByRole('button', { name: 'Save reminder' }));
      await vi.waitFor(() => expect(dismiss).toHaveBeenCalledWith(failed));
      expect(dismiss).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
      dismiss.mockRestore();
    }
  });

  it('reads out each day’s bar in the week’s words: under a minute for a day heard less, 0 minutes for one not heard', async () => {
    fakeApi({
      [`GET ${API.practice}`]: () => ({
        ...practice,
        week: {
          ...practice.week,
          minutes: 13,
          sessions: 3,
          daily_minutes: [0, 0, 0, 0, 1, 2, 10],
          daily_seconds: [0, 0, 0, 20, 65, 130, 610],
        },
      }),
    });
    renderWithProviders(<PracticeView />);
    const bars = within(await screen.findByRole('list', { name: 'Minutes each day' })).getAllByRole('listitem');
    expect(bars.map((bar) => bar.querySelector('.sr-only')!.textContent!.replace(/^.*?: /, ''))).toEqual([
      '0 minutes',
      '0 minutes',
      '0 minutes',
      'Under a minute',
      '1 minute',
      '2 minutes',
      '10 minutes',
    ]);
    // The day heard for under a minute stands above those not heard at all.
    const height = (bar: HTMLElement) => (bar.querySelector('[style]') as HTMLElement).style.height;
    expect(height(bars[3]!)).toBe('6%');
    expect(height(bars[2]!)).toBe('2%');
  });

  it('says under the last sessions how many short tries it leaves out, and why, only when it leaves some out', async () => {
    const entry = {
      id: 1,
      kind: 'music' as const,
      ref: 'track:3',
      title: 'Ocean Drift',
      seconds: 600,
      finished: true,
      started_at: '2026-11-23T17:00:00.000Z',
      recorded_at: '2026-11-23T17:10:00.000Z',
    };
    fakeApi({ [`GET ${API.practice}`]: () => ({ ...practice, last_sessions: [entry], tries_not_listed: 2 }) });
    const tried = renderWithProviders(<PracticeView />);
    const card = await screen.findByRole('region', { name: 'Last sessions' });
    expect(within(card).getByText(PRACTICE_TEXTS.triesNotListed(2))).toBeVisible();
    expect(PRACTICE_TEXTS.triesNotListed(2)).toBe(
      'Not listed: 2 sounds tried for under 30 seconds in a session where something longer played.',
    );
    expect(PRACTICE_TEXTS.triesNotListed(1)).toMatch(/^Not listed: 1 sound tried/);
    tried.unmount();

    fakeApi({ [`GET ${API.practice}`]: () => ({ ...practice, last_sessions: [entry], tries_not_listed: 0 }) });
    renderWithProviders(<PracticeView />);
    const plain = await screen.findByRole('region', { name: 'Last sessions' });
    await within(plain).findByText('Ocean Drift');
    expect(within(plain).queryByText(/Not listed/)).toBeNull();
  });

  it('takes Delete history’s failure toast away once it, pressed again, works (decision 150)', async () => {
    signIn(7);
    const user = userEvent.setup();
    let failing = true;
    fakeApi({
      [`GET ${API.practice}`]: () => practice,
      [`DELETE ${API.history}`]: () => (failing ? jsonResponse(503, null) : new Response(null, { status: 204 })),
    });
    const error = vi.spyOn(toast, 'error');
    const dismiss = vi.spyOn(toast, 'dismiss');
    try {
      renderWithProviders(<PracticeView />);
      await user.click(await screen.findByRole('button', { name: 'Delete history' }));
      const remove = () => within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete history' });
      await user.click(remove());
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith(PRACTICE_TEXTS.deleteFailed));
      const failed = error.mock.results[0]!.value as string | number;
      expect(dismiss).not.toHaveBeenCalledWith(failed);
      failing = false;
      await user.click(remove());
      await vi.waitFor(() => expect(dismiss).toHaveBeenCalledWith(failed));
      expect(dismiss).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
      dismiss.mockRestore();
    }
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

  it('keeps the keyboard on the dialog’s "Delete history" while it runs and after a refusal, then hands it to the page’s heading', async () => {
    const user = userEvent.setup();
    everyElementShown();
    let deleted = false;
    const answers: Array<(response: Response) => void> = [];
    const api = fakeApi({
      [`GET ${API.practice}`]: () => (deleted ? { ...practice, total_sessions: 0 } : practice),
      [`DELETE ${API.history}`]: () =>
        new Promise<Response>((resolve) => answers.push(resolve)).then((response) => {
          deleted = response.ok;
          return response;
        }),
    });
    renderWithProviders(
      <main id="main">
        <h1>Your practice</h1>
        <PracticeView />
      </main>,
    );
    await user.click(await screen.findByRole('button', { name: 'Delete history' }));
    const dialog = screen.getByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete history' });
    confirm.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(confirm).toHaveTextContent('Deleting…'));
    expect(confirm).toHaveAttribute('aria-disabled', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveAttribute('aria-disabled', 'true');
    expect(confirm).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(api.calls.filter(({ method }) => method === 'DELETE')).toHaveLength(1);

    // Refused: the dialog stays, the button available again with the keyboard on it.
    answers[0]!(jsonResponse(500, {}));
    await vi.waitFor(() => expect(confirm).not.toHaveAttribute('aria-disabled', 'true'));
    expect(confirm).toHaveTextContent('Delete history');
    expect(confirm).toHaveFocus();

    // Deleted: no session is left, the trigger goes with the dialog, and the keyboard to the page's heading.
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!(new Response(null, { status: 204 }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete history' })).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Your practice' })).toHaveFocus());
  });
});
