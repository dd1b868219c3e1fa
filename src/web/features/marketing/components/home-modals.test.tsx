import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SOLFEGGIO_FREQUENCIES } from '@web/lib/constants';
import { FrequencyCards } from './frequency-cards';
import { Integration } from './integration';
import { Newsletter } from './newsletter';

describe('frequency cards', () => {
  it('shows the ten frequencies from 963 Hz down to 174 Hz', () => {
    render(<FrequencyCards />);
    const cards = screen.getAllByRole('button', { name: /Hz/ });
    expect(cards.map((card) => card.textContent?.match(/^(\d+) Hz/)?.[1])).toEqual([
      '963',
      '852',
      '741',
      '639',
      '528',
      '432',
      '417',
      '396',
      '285',
      '174',
    ]);
  });

  it('opens a modal with the description, closes on Escape and returns focus to the card', async () => {
    const user = userEvent.setup();
    render(<FrequencyCards />);
    const frequency = SOLFEGGIO_FREQUENCIES.find((f) => f.hz === 396)!;
    const card = screen.getByRole('button', { name: /^396 Hz/ });
    await user.click(card);
    const dialog = await screen.findByRole('dialog', { name: `396 Hz · ${frequency.name}` });
    expect(dialog).toHaveAccessibleDescription(frequency.description);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(card).toHaveFocus();
  });
});

describe('under-development modal', () => {
  it('Android and iOS open it; I understand closes it', async () => {
    const user = userEvent.setup();
    render(<Integration />);
    for (const [button, feature] of [
      ['Android', 'The Android app'],
      ['iOS', 'The iOS app'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: button }));
      const dialog = await screen.findByRole('dialog', { name: 'This feature is under development' });
      // The dialog (its code loaded on the first press) takes presses from the render after the one that shows it,
      // where the page behind stops taking them: a test that pressed at once failed under load, a person's press
      // comes long after (docs/decisions/082-tests-that-wait-for-what-they-mean.md).
      await waitFor(() => expect(dialog).toHaveStyle({ pointerEvents: 'auto' }));
      expect(dialog).toHaveTextContent(feature);
      // No promise of a Windows app that is not published.
      expect(dialog).toHaveTextContent('Meanwhile, everything Innerwave offers works in your browser.');
      expect(dialog).not.toHaveTextContent('Windows');
      await user.click(within(dialog).getByRole('button', { name: 'I understand' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: button })).toHaveFocus();
    }
    expect(screen.getByRole('link', { name: 'Windows' })).toHaveAttribute('href', '/applications');
    expect(screen.getByText(/It is not published yet/)).toBeInTheDocument();
  });

  it('the newsletter needs an e-mail before Join opens it, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<Newsletter />);
    const email = screen.getByRole('textbox', { name: 'E-mail address' });
    expect(email).toBeRequired();
    await user.click(screen.getByRole('button', { name: 'Join' }));
    // The modal loads asynchronously: give it the time it would need before asserting it stayed closed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.type(email, 'me@example.com');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    const dialog = await screen.findByRole('dialog', { name: 'This feature is under development' });
    expect(dialog).toHaveTextContent('The newsletter');
    expect(dialog).toHaveTextContent('was not sent or stored');
    expect(email).toHaveValue('me@example.com');
  });
});
