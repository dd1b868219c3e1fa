import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PlaylistItem } from '../lib/player-storage';
import { PLAYLIST_ROWS_SHOWN, PlaylistPanel } from './playlist-panel';

const items = (count: number): PlaylistItem[] =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, message_text: `Message ${i + 1}.`, source: 'own' }));
const row = (text: string) => screen.getByText(text).closest('li')!;

describe('PlaylistPanel', () => {
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
});
