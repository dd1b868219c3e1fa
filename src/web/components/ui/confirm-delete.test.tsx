import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDelete } from './confirm-delete';

describe('ConfirmDelete', () => {
  it('keeps the keyboard on the dialog’s Delete while it runs, and neither button nor Escape does anything meanwhile', async () => {
    const user = userEvent.setup();
    let answer = () => {};
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    render(
      <ul>
        <li>
          <ConfirmDelete
            label="Delete version 2.4.0"
            title="Delete version 2.4.0?"
            description="The installer file is removed."
            onConfirm={onConfirm}
          />
        </li>
      </ul>,
    );
    await user.click(screen.getByRole('button', { name: 'Delete version 2.4.0' }));
    const confirm = await screen.findByRole('button', { name: 'Delete' });
    confirm.focus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);

    // Waiting: the same button, named for what runs, unavailable yet with the keyboard on it.
    const deleting = screen.getByRole('button', { name: 'Deleting…' });
    expect(deleting).toBe(confirm);
    expect(deleting).toHaveAttribute('aria-disabled', 'true');
    expect(deleting).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onConfirm).toHaveBeenCalledTimes(1);

    // Cancel waits too: the delete is under way, so it closes nothing, and keeps the keyboard.
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    cancel.focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(cancel).toHaveFocus();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    answer();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
