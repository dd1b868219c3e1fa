import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PlaylistItem } from '../lib/player-storage';
import { PLAYLIST_ROWS_SHOWN, PlaylistPanel, type AddedRows } from './playlist-panel';

const items = (count: number): PlaylistItem[] =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, message_text: `Message ${i + 1}.`, source: 'own' }));
const row = (text: string) => screen.getByText(text).closest('li')!;

describe('PlaylistPanel', () => {
  it('hands the keyboard from a removed message to the next row’s Remove, and from the last to the playlist’s heading (decision 151)', async () => {
    const user = userEvent.setup();
    function Player() {
      const [playlist, setPlaylist] = useState(items(2));
      return (
        <PlaylistPanel
          playlist={playlist}
          onRemove={(gone) => setPlaylist((now) => now.filter((item) => item !== gone))}
          onClear={vi.fn()}
        />
      );
    }
    render(<Player />);
    screen.getByRole('button', { name: 'Remove “Message 1.” from playlist' }).focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove “Message 2.” from playlist' })).toHaveFocus(),
    );
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: /^Playlist/ })).toHaveFocus());
  });

  it('hands the keyboard from "Clear all", unavailable once the playlist is empty, to the playlist’s heading (decision 151)', async () => {
    const user = userEvent.setup();
    function Player() {
      const [playlist, setPlaylist] = useState(items(2));
      return <PlaylistPanel playlist={playlist} onRemove={vi.fn()} onClear={() => setPlaylist([])} />;
    }
    render(<Player />);
    screen.getByRole('button', { name: 'Clear all' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Clear all' })).toBeDisabled();
    expect(screen.getByRole('heading', { name: /^Playlist/ })).toHaveFocus();
  });

  it('draws a row in three elements, its Remove icon in CSS: a thousand rows are a page', () => {
    render(<PlaylistPanel playlist={items(2)} onRemove={vi.fn()} onClear={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Remove “Message 1.” from playlist' })).toHaveClass('icon-x');
    // Lucide's X was three elements more a row.
    expect(row('Message 1.').querySelectorAll('*')).toHaveLength(2);
  });
  it(`shows a long playlist's first ${PLAYLIST_ROWS_SHOWN} messages, the others when asked`, async () => {
    const user = userEvent.setup();
    const playlist = items(PLAYLIST_ROWS_SHOWN + 3);
    const onRemove = vi.fn();
    const { rerender } = render(<PlaylistPanel playlist={playlist} onRemove={onRemove} onClear={vi.fn()} />);
    expect(row(`Message ${PLAYLIST_ROWS_SHOWN}.`)).not.toHaveAttribute('hidden');
    // In the page for the browser's find, folded away otherwise.
    expect(row(`Message ${PLAYLIST_ROWS_SHOWN + 1}.`)).toHaveAttribute('hidden', 'until-found');
    expect(
      screen.queryByRole('button', { name: `Remove “Message ${PLAYLIST_ROWS_SHOWN + 1}.” from playlist` }),
    ).toBeNull();

    // One removed above them: the first of them takes its place among those shown.
    await user.click(screen.getByRole('button', { name: 'Remove “Message 1.” from playlist' }));
    expect(onRemove).toHaveBeenCalledWith(playlist[0]);
    rerender(<PlaylistPanel playlist={playlist.slice(1)} onRemove={onRemove} onClear={vi.fn()} />);
    expect(row(`Message ${PLAYLIST_ROWS_SHOWN + 1}.`)).not.toHaveAttribute('hidden');
    expect(row(`Message ${PLAYLIST_ROWS_SHOWN + 2}.`)).toHaveAttribute('hidden', 'until-found');

    await user.click(screen.getByRole('button', { name: 'Show the other 2 messages' }));
    expect(
      screen.getByRole('button', { name: `Remove “Message ${PLAYLIST_ROWS_SHOWN + 2}.” from playlist` }),
    ).toHaveFocus();
    expect(row(`Message ${PLAYLIST_ROWS_SHOWN + 3}.`)).not.toHaveAttribute('hidden');
  });

  it('shows messages added to a long playlist: unfolded, its box scrolled to the first of them, not the page', () => {
    const before = items(PLAYLIST_ROWS_SHOWN + 10);
    const props = { onRemove: vi.fn(), onClear: vi.fn() };
    const { rerender } = render(<PlaylistPanel playlist={before} {...props} />);
    const box = row('Message 1.').closest('ol')!.parentElement!;
    // The box shows 320 px from 100 px down; each row is 30 px high, at its place in the list.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this === box) return DOMRect.fromRect({ y: 100, height: 320 });
      const index = [...(this.parentElement?.children ?? [])].indexOf(this);
      return DOMRect.fromRect({ y: 100 + index * 30 - box.scrollTop, height: 30 });
    });
    const category = items(3).map((item) => ({ ...item, message_text: `Added ${item.id}.` }));
    const after = [...before, ...category];
    const added: AddedRows = { first: category[0]!, count: 3 };
    rerender(<PlaylistPanel playlist={after} added={added} {...props} />);
    for (const text of ['Message 51.', 'Added 1.', 'Added 3.']) expect(row(text)).not.toHaveAttribute('hidden');
    expect(screen.queryByRole('button', { name: /Show the other/ })).toBeNull();
    expect(box.scrollTop).toBe(before.length * 30);
    // Rendered again for another reason (a removal), it stays where the person has it.
    box.scrollTop = 0;
    rerender(<PlaylistPanel playlist={after.slice(1)} added={added} {...props} />);
    expect(box.scrollTop).toBe(0);
    vi.restoreAllMocks();
  });

  it('leaves a long playlist folded when it grows by other means (Undo of Clear all, another device)', () => {
    const props = { onRemove: vi.fn(), onClear: vi.fn() };
    const { rerender } = render(<PlaylistPanel playlist={[]} {...props} />);
    rerender(<PlaylistPanel playlist={items(PLAYLIST_ROWS_SHOWN + 10)} {...props} />);
    expect(row(`Message ${PLAYLIST_ROWS_SHOWN + 1}.`)).toHaveAttribute('hidden', 'until-found');
    expect(screen.getByRole('button', { name: 'Show the other 10 messages' })).toBeInTheDocument();
  });
});
