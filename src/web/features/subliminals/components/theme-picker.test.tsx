import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlanState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { usePlan } from '@web/lib/plan';
import { fakeApi, jsonResponse, planFailingOnce, planStateFor, renderWithProviders } from '@web/test/render';
import { DEFAULT_SETTINGS, type PlayerSettings } from '../lib/player-storage';
import { ThemePicker } from './theme-picker';
import { everyElementShown } from '@web/test/shown';

function Picker({
  allThemes,
  onSettings,
  initial = DEFAULT_SETTINGS,
}: {
  allThemes: boolean;
  onSettings(settings: PlayerSettings): void;
  initial?: PlayerSettings;
}) {
  const [settings, setSettings] = useState(initial);
  return (
    <ThemePicker
      settings={settings}
      allThemes={allThemes}
      onChange={(next) => {
        setSettings(next);
        onSettings(next);
      }}
    />
  );
}

describe('ThemePicker', () => {
  // The plan as the picker is told it; its own read, for the plan's message, waits.
  beforeEach(() => void fakeApi({ [`GET ${API.plan}`]: () => new Promise<Response>(() => {}) }));

  it('names its group "Theme" alone, though the plan’s lock sits beside the word', () => {
    renderWithProviders(<Picker allThemes={false} onSettings={() => undefined} />);
    expect(screen.getByRole('group', { name: 'Theme' })).toContainElement(screen.getByRole('radio', { name: 'Night' }));
    expect(screen.getByRole('button', { name: /More themes/ })).toBeInTheDocument();
  });

  it('on Basic, offers the three basic themes and locks the rest behind the plan that has them', async () => {
    const user = userEvent.setup();
    let latest = DEFAULT_SETTINGS;
    renderWithProviders(<Picker allThemes={false} onSettings={(next) => (latest = next)} />);

    expect(screen.getByRole('radio', { name: 'Night' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Ocean, locked' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Custom, locked' })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Paper' }));
    expect(latest).toMatchObject({ theme: 'paper', messageColor: '#1f2937' });
    expect(screen.getByRole('button', { name: 'More themes Intermediate' })).toBeInTheDocument();
  });

  it('after a downgrade shows the kept theme selected, from the earlier plan, until another is chosen', async () => {
    const user = userEvent.setup();
    let latest = DEFAULT_SETTINGS;
    const custom: PlayerSettings = {
      ...DEFAULT_SETTINGS,
      theme: 'custom',
      customTheme: { background: '#223344', font: 'serif' },
    };
    renderWithProviders(<Picker allThemes={false} initial={custom} onSettings={(next) => (latest = next)} />);

    const kept = screen.getByRole('radio', { name: 'Custom, from your earlier plan' });
    expect(kept).toBeChecked();
    expect(kept).toBeEnabled();
    expect(kept).toHaveAccessibleDescription(
      'Your custom theme is from your earlier plan: it stays until you choose another theme.',
    );
    // Its background and font are not changed on a plan without custom themes.
    expect(screen.queryByLabelText('Font')).toBeNull();
    expect(screen.getByRole('radio', { name: 'Forest, locked' })).toBeDisabled();

    await user.click(screen.getByRole('radio', { name: 'Midnight' }));
    expect(latest).toMatchObject({ theme: 'midnight', customTheme: undefined });
    expect(screen.getByRole('radio', { name: 'Custom, locked' })).toBeDisabled();
    expect(screen.queryByText(/from your earlier plan/)).toBeNull();
  });

  it('with all themes, a custom theme keeps its own background and font', async () => {
    const user = userEvent.setup();
    let latest = DEFAULT_SETTINGS;
    renderWithProviders(<Picker allThemes onSettings={(next) => (latest = next)} />);

    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    await user.selectOptions(screen.getByLabelText('Font'), 'Serif');
    expect(latest).toMatchObject({ theme: 'custom', customTheme: { background: '#0b1026', font: 'serif' } });
    await user.click(screen.getByRole('radio', { name: 'Forest' }));
    expect(latest.customTheme).toBeUndefined();
    expect(latest.theme).toBe('forest');
    expect(screen.queryByRole('button', { name: /Intermediate/ })).not.toBeInTheDocument();
  });
});

/** The picker as the player gives it the plan: usePlan's `has`, undefined until the plan is known. */
function PickerOfPlan({ initial = DEFAULT_SETTINGS }: { initial?: PlayerSettings }) {
  const [settings, setSettings] = useState(initial);
  return <ThemePicker settings={settings} allThemes={usePlan().has('allThemes')} onChange={setSettings} />;
}

describe('ThemePicker before the plan is known (decision 132)', () => {
  const forest: PlayerSettings = { ...DEFAULT_SETTINGS, theme: 'forest', messageColor: '#bbf7d0' };
  const basicOffered = () => {
    for (const name of ['Night', 'Paper', 'Midnight']) expect(screen.getByRole('radio', { name })).toBeEnabled();
  };
  const noOtherThemeOfferedOrLocked = () => {
    expect(screen.queryByRole('radio', { name: /Ocean|Dawn|Custom/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /More themes/ })).toBeNull();
  };

  it('while the plan is read, offers the themes every plan has and keeps the one chosen, no other offered or locked; then Basic’s locks', async () => {
    let answerPlan: (plan: PlanState) => void = () => {};
    fakeApi({ [`GET ${API.plan}`]: () => new Promise((resolve) => (answerPlan = resolve)) });
    renderWithProviders(<PickerOfPlan initial={forest} />);
    basicOffered();
    // A paying person's theme: chosen, neither locked nor said to be from an earlier plan.
    expect(screen.getByRole('radio', { name: 'Forest' })).toBeChecked();
    expect(screen.queryByText(/from your earlier plan/)).toBeNull();
    noOtherThemeOfferedOrLocked();
    expect(screen.queryByRole('alert')).toBeNull();

    answerPlan(planStateFor('basic'));
    expect(await screen.findByRole('button', { name: 'More themes Intermediate' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Ocean, locked' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Forest, from your earlier plan' })).toBeChecked();
  });

  it('while the plan is read, then read as Pro: every theme and custom ones are offered', async () => {
    let answerPlan: (plan: PlanState) => void = () => {};
    fakeApi({ [`GET ${API.plan}`]: () => new Promise((resolve) => (answerPlan = resolve)) });
    renderWithProviders(<PickerOfPlan />);
    noOtherThemeOfferedOrLocked();
    answerPlan(planStateFor('pro'));
    expect(await screen.findByRole('radio', { name: 'Ocean' })).toBeEnabled();
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /More themes/ })).toBeNull();
  });

  it('when the plan could not be read, says so where the other themes would be, and Try again offers them with the keyboard on the first', async () => {
    everyElementShown();
    const plan = planFailingOnce();
    fakeApi({ [`GET ${API.plan}`]: plan.read });
    renderWithProviders(<PickerOfPlan />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Could not load your plan: Server error.More themes, spoken affirmations, saving, sharing and export show once it is read.',
    );
    expect(screen.getByRole('group', { name: 'Theme' })).toContainElement(alert);
    basicOffered();
    noOtherThemeOfferedOrLocked();

    const button = within(alert).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    plan.answer(planStateFor('intermediate'));
    await vi.waitFor(() => expect(screen.getByRole('radio', { name: 'Ocean' })).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the plan could not be read, keeps the theme chosen shown and chosen, said to be no earlier plan’s', async () => {
    fakeApi({ [`GET ${API.plan}`]: () => jsonResponse(500, { detail: 'Server error.' }) });
    renderWithProviders(<PickerOfPlan initial={forest} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your plan: Server error.');
    expect(screen.getByRole('radio', { name: 'Forest' })).toBeChecked();
    expect(screen.queryByText(/from your earlier plan/)).toBeNull();
    basicOffered();
    noOtherThemeOfferedOrLocked();
  });
});
