import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, planFailingOnce, planStateFor, renderWithProviders } from '@web/test/render';
import { everyElementShown } from '@web/test/shown';
import { SoundLayers } from './sound-layers';

// jsdom has no Web Audio: the engine stands in (the layers themselves are heard in e2e/sound-engine.spec.ts).
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

describe('SoundLayers', () => {
  it('on Basic, names the plan that has them where they would be', async () => {
    fakeApi({ [`GET ${API.plan}`]: () => planStateFor('basic') });
    renderWithProviders(<SoundLayers />);
    const section = screen.getByRole('region', { name: 'Sound layers' });
    expect(await within(section).findByRole('button', { name: /^Sound layers.*Intermediate$/ })).toBeInTheDocument();
    expect(within(section).getByText('Your plan plays one sound at a time.')).toBeInTheDocument();
    expect(within(section).queryByRole('group', { name: 'Noise colour' })).toBeNull();
  });

  it('says in the section why it waits when the plan could not be read, and Try again hands the keyboard on (decision 140)', async () => {
    everyElementShown();
    const plan = planFailingOnce();
    fakeApi({ [`GET ${API.plan}`]: plan.read });
    renderWithProviders(<SoundLayers />);
    const section = screen.getByRole('region', { name: 'Sound layers' });
    // Quiet: the screen's one alert stands in My music, off screen on a phone.
    const line = await within(section).findByText('Your plan could not be loaded: the sound layers show once it is.');
    expect(within(section).queryByRole('alert')).toBeNull();
    const button = within(section).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    plan.answer(planStateFor('intermediate'));
    const noise = await within(section).findByRole('group', { name: 'Noise colour' });
    await vi.waitFor(() => expect(within(noise).getByRole('button', { name: 'Off' })).toHaveFocus());
    expect(line).not.toBeInTheDocument();
  });
});
