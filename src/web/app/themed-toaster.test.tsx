import { act, render, screen, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '@web/lib/session';
import ThemedToaster from './themed-toaster';

describe('toasts', () => {
  afterEach(() => {
    act(() => toast.dismiss());
    sessionStore.clear();
  });

  it('the same message again replaces the one on screen instead of stacking', async () => {
    render(<ThemedToaster />);
    act(() => {
      toast.error('The email or password is incorrect!');
      toast.error('The email or password is incorrect!');
      toast.success('Added Focus messages to playlist!');
      toast.success('Added Focus messages to playlist!');
    });
    expect(await screen.findByText('Added Focus messages to playlist!')).toBeInTheDocument();
    expect(screen.getAllByText('The email or password is incorrect!')).toHaveLength(1);
    expect(screen.getAllByText('Added Focus messages to playlist!')).toHaveLength(1);
  });

  it('a successful login clears what the signed-out screens said', async () => {
    render(<ThemedToaster />);
    act(() => void toast.error('The email or password is incorrect!'));
    expect(await screen.findByText('The email or password is incorrect!')).toBeInTheDocument();
    act(() => sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com'));
    await waitFor(() => expect(screen.queryByText('The email or password is incorrect!')).toBeNull());
  });

  it('a toast that sets no time stays 5 s, as the spec’s toast library kept it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      render(<ThemedToaster />);
      act(() => void toast.success('Profile updated.'));
      expect(await screen.findByText('Profile updated.')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(4500));
      expect(screen.getByText('Profile updated.')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1500));
      await waitFor(() => expect(screen.queryByText('Profile updated.')).toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });
});
