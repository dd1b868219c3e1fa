import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AccountSummary } from './components/account';
import { LayerNames } from './components/mini-player';
import { InlineEdit } from './components/ui/inline-edit';
import { AudioCard } from './features/music/components/audio-list';
import { CategoryAccordion } from './features/subliminals/components/category-accordion';
import { PlaylistPanel } from './features/subliminals/components/playlist-panel';
import { SharedView } from './features/subliminals/components/shared-view';
import { GoalsSummary } from './features/guidance/components/goals-summary';
import { API } from '@shared/contract/paths';
import { fakeApi, renderWithProviders } from './test/render';
import { expectIsolated, STORED_OVERRIDE } from './test/isolated';

// Each place the portal shows a text a person typed holds it in its own box for direction, so one stored
// with a direction control before decision 063 reorders nothing after it
// (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md). The share page the server fills is
// asserted in src/server/own/shared-page.test.ts, the staff's screens in their panels' tests.

describe('a text a person typed, where the portal shows it', () => {
  it('own categories, own messages and saved subliminals (shown by InlineEdit), and the playlist', () => {
    render(
      <>
        <InlineEdit value={STORED_OVERRIDE} label="name" onSave={vi.fn()} />
        <PlaylistPanel
          playlist={[{ id: 1, message_text: STORED_OVERRIDE, source: 'own' }]}
          onRemove={vi.fn()}
          onClear={vi.fn()}
        />
      </>,
    );
    const [named, listed] = screen.getAllByText(STORED_OVERRIDE);
    expectIsolated(named!);
    expectIsolated(listed!);
  });

  it('a category and its messages in the accordion, with its count beside it', async () => {
    const category = { id: 1, name: STORED_OVERRIDE, messages: [{ id: 1, message_text: STORED_OVERRIDE }] };
    render(<CategoryAccordion categories={[category]} isAdded={() => false} onAdd={vi.fn()} />);
    const trigger = screen.getByRole('button', { name: /1 messages/ });
    expectIsolated(within(trigger).getByText(STORED_OVERRIDE));
    await userEvent.setup().click(trigger);
    expectIsolated(screen.getByRole('listitem'));
  });

  it('an own track’s name beside its status, and the account’s name in the menu', () => {
    render(
      <ul>
        <AudioCard item={{ name: STORED_OVERRIDE }} status="playing" onToggle={vi.fn()} />
        <AccountSummary account={{ name: STORED_OVERRIDE, email: 'ada@example.com', initials: 'S' }} />
      </ul>,
    );
    const [track, account] = screen.getAllByText(STORED_OVERRIDE);
    expectIsolated(track!);
    expectIsolated(account!);
  });

  it('an own track’s name among what plays (the mini-player, the session’s status, the export)', () => {
    const { container } = render(
      <p>
        <LayerNames
          layers={[
            {
              id: 'track',
              source: { kind: 'track', key: 'own:1', title: STORED_OVERRIDE, url: '' },
              gain: 1,
              status: 'ready',
            },
            { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 1, status: 'ready' },
          ]}
        />
      </p>,
    );
    expectIsolated(screen.getByText(STORED_OVERRIDE));
    expect(container).toHaveTextContent(`${STORED_OVERRIDE} + Pink noise`);
  });

  it('a shared subliminal’s name and messages, and the tab’s title', () => {
    const item = {
      kind: 'messages' as const,
      name: STORED_OVERRIDE,
      messages: [STORED_OVERRIDE],
      shared_at: '2026-11-20T23:30:00Z',
    };
    render(<SharedView item={item} />);
    expectIsolated(screen.getByRole('heading', { level: 1 }));
    expectIsolated(screen.getByRole('listitem'));
    expect(document.title).toBe(`\u2068${STORED_OVERRIDE}\u2069 · Innerwave`);
  });

  it('one’s own words of the onboarding after the goals chosen, in the profile', async () => {
    const answers = { goals: ['sleep'], free_text: STORED_OVERRIDE, headphones: true, session_minutes: 10 };
    fakeApi({
      [`GET ${API.onboarding}`]: () => ({ ...answers, skipped: false, completed_at: '2026-11-20T23:30:00Z' }),
    });
    renderWithProviders(<GoalsSummary />);
    const words = await screen.findByText(STORED_OVERRIDE);
    expectIsolated(words);
    expect(words.parentElement).toHaveTextContent(`Sleep, “${STORED_OVERRIDE}”`, { normalizeWhitespace: false });
  });
});
