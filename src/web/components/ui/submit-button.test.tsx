import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SubmitButton } from './submit-button';

/** A form of one field (Enter in it sends it) whose request runs until the test says otherwise. */
function OneFieldForm({ onSend }: { onSend: () => void }) {
  const [pending, setPending] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
        setPending(true);
      }}
    >
      <label htmlFor="email">Email</label>
      <input id="email" name="email" />
      <SubmitButton pending={pending} pendingLabel="Sending the link">
        Send reset link
      </SubmitButton>
    </form>
  );
}

describe('submit button', () => {
  it('stays in place with the keyboard on it while pending, and neither a click nor Enter sends the form again', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    render(<OneFieldForm onSend={onSend} />);
    const button = screen.getByRole('button', { name: 'Send reset link' });
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('status')).toHaveTextContent('');

    await user.click(button);
    expect(onSend).toHaveBeenCalledTimes(1);
    // The same button, still named and focusable, says it is unavailable; the spinner's word is said beside it.
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBe(button);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toBeEnabled();
    expect(button).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Sending the link');

    await user.click(button);
    await user.keyboard('{Enter}');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
  });
});
