import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MoveButtons, moved } from './move-buttons';

/** A list whose order changes once the "server" answered, as the admin and own messages' lists do. */
function List({ initial }: { initial: number[] }) {
  const [ids, setIds] = useState(initial);
  return (
    <ol>
      {ids.map((id, index) => (
        <li key={id}>
          <MoveButtons
            index={index}
            count={ids.length}
            label={`item ${id}`}
            onMove={(delta) => void Promise.resolve().then(() => setIds(moved(ids, index, delta)))}
          />
        </li>
      ))}
    </ol>
  );
}

describe('MoveButtons', () => {
  it('keeps the keyboard on the other arrow when an item reaches the bottom or the top', async () => {
    const user = userEvent.setup();
    render(<List initial={[1, 2, 3]} />);
    screen.getByRole('button', { name: 'Move item 2 down' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Move item 2 down' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move item 2 up' })).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Move item 2 up' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Move item 2 down' })).toHaveFocus();
  });

  it('leaves the keyboard where it is when the item stays between others', async () => {
    const user = userEvent.setup();
    render(<List initial={[1, 2, 3, 4]} />);
    screen.getByRole('button', { name: 'Move item 2 down' }).focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() =>
      expect(screen.getAllByRole('listitem')[2]).toContainElement(document.activeElement as HTMLElement),
    );
    expect(screen.getByRole('button', { name: 'Move item 2 down' })).toHaveFocus();
  });
});
