import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { describe, expect, it } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, planStateFor, renderWithProviders } from '@web/test/render';
import { BinauralGenerator } from './binaural-generator';

const renderGenerator = () => {
  fakeApi({ [`GET ${API.plan}`]: () => planStateFor('basic') });
  return renderWithProviders(<BinauralGenerator />);
};

// jsdom has no Web Audio, like a browser without it: the engine's real failure path, no mock.

describe('binaural generator', () => {
  it('asks for a preset, fills in the band, shows the beat, and reports an engine that cannot start', async () => {
    const user = userEvent.setup();
    fakeApi({ [`GET ${API.plan}`]: () => planStateFor('basic') });
    renderWithProviders(
      <>
        <BinauralGenerator />
        <Toaster />
      </>,
    );
    // Each field's name says its unit, drawn in the field for the eye only.
    const left = screen.getByRole('spinbutton', { name: 'Left frequency (Hz)' });
    const right = screen.getByRole('spinbutton', { name: 'Right frequency (Hz)' });
    expect(left).toHaveValue(200);
    expect(right).toHaveValue(205);
    expect(screen.getByRole('slider', { name: 'Volume' })).toHaveValue('0.5');
    expect(screen.getByText('50%')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Beat' })).toHaveTextContent('5 Hz');

    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('Please select a frequency preset first!')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Beta' }));
    expect(left).toHaveValue(200);
    expect(right).toHaveValue(220);
    expect(screen.getByRole('status', { name: 'Beat' })).toHaveTextContent('20 Hz');

    await user.clear(left);
    await user.type(left, '0');
    expect(screen.getByText('Plays at 0.1 Hz (range 0.1–1000 Hz)')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Beat' })).toHaveTextContent('219.9 Hz');

    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('Failed to start binaural beats. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Stopped')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('puts the clamped frequency in a field that is left out of range, naming the limit', async () => {
    const user = userEvent.setup();
    renderGenerator();
    const left = screen.getByRole('spinbutton', { name: 'Left frequency (Hz)' });
    await user.clear(left);
    await user.type(left, '5000');
    expect(screen.getByText('Plays at 1000 Hz (range 0.1–1000 Hz)')).toBeInTheDocument();
    await user.tab();
    expect(left).toHaveValue(1000);
    expect(left).toHaveAccessibleDescription('Set to 1000 Hz, the highest frequency that plays (range 0.1–1000 Hz)');
    await user.clear(left);
    await user.type(left, '0');
    await user.tab();
    expect(left).toHaveValue(0.1);
    expect(left).toHaveAccessibleDescription('Set to 0.1 Hz, the lowest frequency that plays (range 0.1–1000 Hz)');
    await user.type(left, '5');
    expect(left).not.toHaveAccessibleDescription();
  });

  it('shows a frequency as it plays once the field is left, whatever way it was typed', async () => {
    const user = userEvent.setup();
    renderGenerator();
    const left = screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Left frequency (Hz)' });
    const right = screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Right frequency (Hz)' });
    await user.clear(left);
    await user.type(left, '1e3');
    expect(left.value).toBe('1e3');
    await user.tab();
    expect(left.value).toBe('1000');
    expect(left).not.toHaveAccessibleDescription();
    await user.clear(right);
    await user.type(right, '0100');
    await user.tab();
    expect(right.value).toBe('100');
    expect(screen.getByRole('status', { name: 'Beat' })).toHaveTextContent('900 Hz');
  });

  it('shows a preset selected only while the fields hold its frequencies', async () => {
    const user = userEvent.setup();
    renderGenerator();
    await user.click(screen.getByRole('radio', { name: 'Alpha' }));
    expect(screen.getByRole('radio', { name: 'Alpha' })).toBeChecked();
    expect(screen.queryByText(/^Above 30 Hz/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Gamma' }));
    expect(screen.getByText(/^Above 30 Hz/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Alpha' }));
    const right = screen.getByRole('spinbutton', { name: 'Right frequency (Hz)' });
    await user.clear(right);
    await user.type(right, '213');
    expect(screen.getByRole('radio', { name: 'Alpha' })).not.toBeChecked();
    await user.clear(right);
    await user.type(right, '210');
    expect(screen.getByRole('radio', { name: 'Alpha' })).toBeChecked();
  });
});
