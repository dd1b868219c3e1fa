import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

/** A button whose call runs until the test ends it, as a download or a resend does. */
function WaitingButton({ onPress }: { onPress: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button
        busy={busy}
        onClick={() => {
          onPress();
          setBusy(true);
        }}
      >
        Download my data
      </Button>
      <button type="button" onClick={() => setBusy(false)}>
        Answer
      </button>
    </>
  );
}

describe('button', () => {
  it('calls nothing while busy, by a click, Enter or Space, and keeps the keyboard on it', async () => {
    const user = userEvent.setup();
    const onPress = vi.fn();
    render(<WaitingButton onPress={onPress} />);
    const button = screen.getByRole('button', { name: 'Download my data' });
    expect(button).not.toHaveAttribute('aria-disabled');

    await user.tab();
    await user.keyboard('{Enter}');
    expect(onPress).toHaveBeenCalledTimes(1);
    // Unavailable yet focusable: the same button, the keyboard still on it.
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toBeEnabled();
    expect(button).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.click(button);
    expect(onPress).toHaveBeenCalledTimes(1);
    expect(button).toHaveFocus();

    // Its call answered, a press calls it again.
    await user.click(screen.getByRole('button', { name: 'Answer' }));
    expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(button);
    expect(onPress).toHaveBeenCalledTimes(2);
  });

  it('sends no form while busy, and keeps an aria-disabled of its own when not busy', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const { rerender } = render(
      <form onSubmit={onSubmit}>
        <Button type="submit" busy>
          Save
        </Button>
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();

    rerender(
      <form onSubmit={onSubmit}>
        <Button type="submit" aria-disabled>
          Save
        </Button>
      </form>,
    );
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('aria-disabled', 'true');
  });
});
