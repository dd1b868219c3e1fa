import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@web/test/render';
import { DEFAULT_SETTINGS, type PlayerSettings } from '../lib/player-storage';
import { ThemePicker } from './theme-picker';

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
