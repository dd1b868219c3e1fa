import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminProgram, AdminProgramWrite } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import type * as Guidance from '@shared/contract/guidance';
import { CONTROL_CHARACTER_REFUSED } from '@shared/contract/plain';
import { fakeApi, pressToastAction, renderWithProviders } from '@web/test/render';
import { ProgramEditor, undoPastDaysLimit } from './program-editor';

// The days' limit is 60; a form of 60 days takes minutes a press in jsdom, so here the editor holds at most three.
// programs-panel.test.tsx presses a layer's Undo at the real limit of four.
vi.mock('@shared/contract/guidance', async (importOriginal) => ({
  ...(await importOriginal<typeof Guidance>()),
  PROGRAM_DAYS_MAX: 3,
}));
let toastIds = 0;
vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(() => ++toastIds), dismiss: vi.fn() } }));
afterEach(() => {
  vi.clearAllMocks();
  sessionStorage.clear();
});

const threeDays = (): AdminProgram => ({
  slug: 'evening-pause',
  title: 'Evening Pause',
  summary: 'Three short evenings.',
  goals: ['calm'],
  position: 0,
  people_started: 2,
  updated_at: '2026-11-20T10:00:00Z',
  days: [1, 2, 3].map((day) => ({
    day,
    title: `Evening ${day}`,
    intro: 'Sit comfortably.',
    minutes: 5,
    messages: ['I slow down.'],
    layers: [],
  })),
});

describe('ProgramEditor', () => {
  it('refuses an Undo that would bring the days past the limit, naming it, and keeps it for when there is room', async () => {
    const user = userEvent.setup();
    const program = threeDays();
    const server = fakeApi({ [`PUT ${adminPath(ADMIN_API.program, { slug: program.slug })}`]: () => program });
    renderWithProviders(<ProgramEditor program={program} onSaved={() => undefined} />);
    const title = (index: number) => screen.getByLabelText('Title', { selector: `#day-${index}-title` });

    await user.click(screen.getByRole('button', { name: 'Remove day 2' }));
    await user.click(screen.getByRole('button', { name: 'Add a day' }));
    expect(screen.queryByRole('button', { name: 'Add a day' })).toBeNull();
    expect(pressToastAction('Day 2 removed; not saved yet.').kept).toBe(true);
    expect(toast.error).toHaveBeenCalledWith(undoPastDaysLimit(2));
    expect(undoPastDaysLimit(2)).toBe('Day 2 cannot come back: the program already has 3 days, the most it can hold.');
    expect(title(1)).toHaveValue('Evening 3');
    expect(document.querySelectorAll('li[id^="program-day-"]')).toHaveLength(3);

    // Room made, the same toast's Undo puts the day back, and the program saves.
    await user.click(screen.getByRole('button', { name: 'Remove day 3' }));
    expect(pressToastAction('Day 2 removed; not saved yet.').kept).toBe(false);
    expect(title(1)).toHaveValue('Evening 2');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(server.calls.some((call) => call.method === 'PUT')).toBe(true));
    const sent = server.calls.find((call) => call.method === 'PUT')!.body as AdminProgramWrite;
    expect(sent.days.map((day) => [day.title, day.from_day])).toEqual([
      ['Evening 1', 1],
      ['Evening 2', 2],
      ['Evening 3', 3],
    ]);
  });

  it('puts day 2 removed twice back where each was, the older Undo pressed first, then the newer', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ProgramEditor program={threeDays()} onSaved={() => undefined} />);
    const titles = () =>
      Array.from(document.querySelectorAll<HTMLInputElement>('li[id^="program-day-"] input[id$="-title"]')).map(
        (input) => input.value,
      );

    await user.click(screen.getByRole('button', { name: 'Remove day 2' }));
    await user.click(screen.getByRole('button', { name: 'Remove day 2' }));
    expect(titles()).toEqual(['Evening 1']);
    // Two toasts of the same words, each with its own Undo (themed-toaster.tsx keeps both).
    const removals = vi.mocked(toast.success).mock.calls.filter(([said]) => said === 'Day 2 removed; not saved yet.');
    expect(removals).toHaveLength(2);
    const press = (call: (typeof removals)[number]) =>
      act(() =>
        (call[1] as { action: { onClick: (event: object) => void } }).action.onClick({
          preventDefault: () => undefined,
        }),
      );
    press(removals[0]!);
    await vi.waitFor(() => expect(titles()).toEqual(['Evening 1', 'Evening 2']));
    press(removals[1]!);
    // Evening 3 goes back after Evening 2, where it was, not at the index it was removed from (2 then 1 gave 1, 3, 2).
    await vi.waitFor(() => expect(titles()).toEqual(['Evening 1', 'Evening 2', 'Evening 3']));
  });

  it('saves a day’s text stored before the rule as it is, moved or not, and refuses it only once typed anew', async () => {
    const user = userEvent.setup();
    const program = threeDays();
    // As a row written before decision 063 refused control characters holds it.
    program.days[1] = { ...program.days[1]!, title: 'Evening\u0007 2', messages: ['I\u0007 slow down.'] };
    const server = fakeApi({ [`PUT ${adminPath(ADMIN_API.program, { slug: program.slug })}`]: () => program });
    renderWithProviders(<ProgramEditor program={program} onSaved={() => undefined} />);
    const puts = () => server.calls.filter((call) => call.method === 'PUT');

    await user.click(screen.getByRole('button', { name: 'Move day 2 up' }));
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(puts()).toHaveLength(1));
    const sent = puts()[0]!.body as AdminProgramWrite;
    expect(sent.days.map((day) => [day.title, day.messages])).toEqual([
      ['Evening\u0007 2', ['I\u0007 slow down.']],
      ['Evening 1', ['I slow down.']],
      ['Evening 3', ['I slow down.']],
    ]);

    // Typed into (the form holds the program as the save answered it), it is refused as any typed text, and nothing
    // is sent.
    const title = screen.getByLabelText('Title', { selector: '#day-1-title' });
    expect(title).toHaveValue('Evening\u0007 2');
    await user.type(title, ' again');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    expect(await screen.findByText(CONTROL_CHARACTER_REFUSED)).toBeInTheDocument();
    expect(puts()).toHaveLength(1);
  });
});
