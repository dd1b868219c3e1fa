import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { everyElementShown } from '@web/test/shown';
import { ConfirmDelete } from './confirm-delete';

/** A page of one list whose rows each delete after asking; `keyboardWhenNoneLeft` given to every row. */
function ListPage({ rows, keyboardWhenNoneLeft }: { rows: string[]; keyboardWhenNoneLeft?: () => HTMLElement | null }) {
  const [left, setLeft] = useState(rows);
  return (
    <main id="main">
      <h1>Staff</h1>
      <ul>
        {left.map((row) => (
          <li key={row}>
            <ConfirmDelete
              label={`Delete ${row}`}
              title={`Delete ${row}?`}
              description="It is removed."
              onConfirm={async () => setLeft((now) => now.filter((candidate) => candidate !== row))}
              keyboardWhenNoneLeft={keyboardWhenNoneLeft}
            />
          </li>
        ))}
      </ul>
      <button type="button">Add a row</button>
    </main>
  );
}

/** Deletes `row` from the keyboard, Delete and the dialog's Delete pressed with Enter, and waits for it to go. */
async function deleteFromTheKeyboard(row: string) {
  const user = userEvent.setup();
  screen.getByRole('button', { name: `Delete ${row}` }).focus();
  await user.keyboard('{Enter}');
  (await screen.findByRole('button', { name: 'Delete' })).focus();
  await user.keyboard('{Enter}');
  await vi.waitFor(() => expect(screen.queryByRole('button', { name: `Delete ${row}` })).toBeNull());
}

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

  it('hands the keyboard from a deleted row to the next row’s Delete, and from the last row to what the list names (decision 151)', async () => {
    render(
      <ListPage rows={['a', 'b']} keyboardWhenNoneLeft={() => screen.getByRole('button', { name: 'Add a row' })} />,
    );
    await deleteFromTheKeyboard('a');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Delete b' })).toHaveFocus());
    await deleteFromTheKeyboard('b');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Add a row' })).toHaveFocus());
  });

  it('hands the keyboard from the last row of a list naming nothing to the page’s heading, not the page’s top (decision 151)', async () => {
    everyElementShown();
    render(<ListPage rows={['a']} />);
    await deleteFromTheKeyboard('a');
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Staff' })).toHaveFocus());
  });
});
