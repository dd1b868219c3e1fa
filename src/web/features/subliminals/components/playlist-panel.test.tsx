import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PlaylistItem } from '../lib/player-storage';
import { PlaylistPanel } from './playlist-panel';

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
});
