import { act, render, screen } from '@testing-library/react';
import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryState } from './query-state';
import { OFFLINE_WAIT_MESSAGE } from './spinner';

// The browser's connection lies outside the app: navigator.onLine and its online/offline events are the test's.

function Words({ read }: { read: () => Promise<string[]> }) {
  const words = useQuery({ queryKey: ['words'], queryFn: read });
  return (
    <QueryState
      isPending={words.isPending}
      error={words.error}
      isEmpty={words.data?.length === 0}
      emptyText="No words yet."
      onRetry={() => void words.refetch()}
    >
      <p>{words.data?.join(' ')}</p>
    </QueryState>
  );
}

describe('a list read while the browser is offline', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    onlineManager.setOnline(true);
  });

  it('says it waits for the connection, not a spinner with no word, and loads once the browser is back online', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    onlineManager.setOnline(false);
    const read = vi.fn(async () => ['calm', 'clear']);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Words read={read} />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('status')).toHaveTextContent(OFFLINE_WAIT_MESSAGE);
    expect(read).not.toHaveBeenCalled();

    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('calm clear')).toBeInTheDocument();
    expect(screen.queryByText(OFFLINE_WAIT_MESSAGE)).toBeNull();
  });
});
