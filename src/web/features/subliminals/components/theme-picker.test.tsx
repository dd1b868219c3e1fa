import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@web/test/render';
import { DEFAULT_SETTINGS, type PlayerSettings } from '../lib/player-storage';
import { ThemePicker } from './theme-picker';

function Picker({ allThemes, onSettings }: { allThemes: boolean; onSettings(settings: PlayerSettings): void }) {
  const [settings, setSettings] = useState(DEFAULT_SETTINGS);
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
