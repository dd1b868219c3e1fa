import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryState } from './query-state';
import { OFFLINE_WAIT_MESSAGE } from './spinner';
import { waitFrames } from '@web/test/frames';
import { everyElementShown } from '@web/test/shown';

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

describe('"Try again" on a list that failed to load', () => {
  beforeEach(everyElementShown);
  afterEach(() => {
    vi.restoreAllMocks();
    onlineManager.setOnline(true);
  });
  /** The list read as a control for each word, for the keyboard to land on. */
  const wordButtons = (list: string[]) => (
    <ul>
      {list.map((word) => (
        <li key={word}>
          <button type="button">Add {word}</button>
        </li>
      ))}
    </ul>
  );

  function renderWords(read: () => Promise<string[]>, words = (list: string[]) => <p>{list.join(' ')}</p>) {
    function Listed() {
      const query = useQuery({ queryKey: ['words'], queryFn: read, retry: false });
      return (
        <main id="main">
          <h1>Words</h1>
          <QueryState
            isPending={query.isPending}
            error={query.error}
            isEmpty={false}
            emptyText=""
            onRetry={() => void query.refetch()}
          >
            {words(query.data ?? [])}
          </QueryState>
        </main>
      );
    }
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <Listed />
      </QueryClientProvider>,
    );
    return queryClient;
  }
  const held = () => {
    let answer!: { resolve: (words: string[]) => void; reject: (error: Error) => void };
    const promise = new Promise<string[]>((resolve, reject) => (answer = { resolve, reject }));
    return { promise, answer };
  };

  it('stays with the keyboard on it, busy, while the list is read again, and keeps it when that fails too', async () => {
    const again = held();
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('Server down'))
      .mockReturnValueOnce(again.promise);
    renderWords(read);
    const button = await screen.findByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(read).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load this list: Server down');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(read).toHaveBeenCalledTimes(2);

    await act(async () => again.answer.reject(new Error('Still down')));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Could not load this list: Still down'));
    expect(screen.getByRole('button', { name: 'Try again' })).toBe(button);
    expect(button).not.toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
  });

  it('hands the keyboard to the first control of the list read', async () => {
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('Server down'))
      .mockResolvedValueOnce(['calm', 'clear']);
    renderWords(read, wordButtons);
    (await screen.findByRole('button', { name: 'Try again' })).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add calm' })).toHaveFocus());
  });

  it('pressed while offline says so at once, busy with the keyboard, and reads the list once back online', async () => {
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('Server down'))
      .mockResolvedValueOnce(['calm', 'clear']);
    renderWords(read, wordButtons);
    const button = await screen.findByRole('button', { name: 'Try again' });
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    onlineManager.setOnline(false);
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(OFFLINE_WAIT_MESSAGE);
    expect(screen.getByRole('alert')).not.toHaveTextContent('Server down');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    expect(read).toHaveBeenCalledTimes(1);

    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add calm' })).toHaveFocus());
    expect(read).toHaveBeenCalledTimes(2);
    expect(screen.queryByText(OFFLINE_WAIT_MESSAGE)).toBeNull();
  });

  /** The browser going offline and back, for TanStack Query to read a failed list again by itself. */
  const backOnline = () => {
    act(() => onlineManager.setOnline(false));
    act(() => onlineManager.setOnline(true));
  };

  it('never pressed, read again by itself once back online, hands the keyboard resting on it to the list read', async () => {
    const again = held();
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('You seem to be offline.'))
      .mockReturnValueOnce(again.promise);
    renderWords(read, wordButtons);
    const button = await screen.findByRole('button', { name: 'Try again' });
    // Tabbed to, not pressed.
    button.focus();
    backOnline();
    await waitFor(() => expect(read).toHaveBeenCalledTimes(2));
    // The message stays, busy, with the keyboard, as after a press, however long the read takes.
    await waitFrames(5);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await act(async () => again.answer.resolve(['calm', 'clear']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add calm' })).toHaveFocus());
  });

  it('never pressed, its list read before, hands the keyboard resting on it to the list once read again by itself', async () => {
    const again = held();
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockResolvedValueOnce(['calm'])
      .mockRejectedValueOnce(new Error('You seem to be offline.'))
      .mockReturnValueOnce(again.promise);
    const queryClient = renderWords(read, wordButtons);
    await screen.findByRole('button', { name: 'Add calm' });
    await act(() => queryClient.refetchQueries());
    const button = await screen.findByRole('button', { name: 'Try again' });
    button.focus();
    backOnline();
    await waitFor(() => expect(read).toHaveBeenCalledTimes(3));
    await waitFrames(5);
    await act(async () => again.answer.resolve(['calm', 'clear']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add calm' })).toHaveFocus());
  });

  it('never pressed, read again by itself, leaves a keyboard that is elsewhere', async () => {
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('You seem to be offline.'))
      .mockResolvedValueOnce(['calm', 'clear']);
    renderWords(read, wordButtons);
    const button = await screen.findByRole('button', { name: 'Try again' });
    button.focus();
    button.blur();
    backOnline();
    expect(await screen.findByRole('button', { name: 'Add calm' })).toBeInTheDocument();
    await waitFrames(3);
    expect(document.body).toHaveFocus();
  });

  it('hands the keyboard to the page heading when what was read holds no control', async () => {
    const read = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new Error('Server down'))
      .mockResolvedValueOnce(['calm', 'clear']);
    renderWords(read);
    (await screen.findByRole('button', { name: 'Try again' })).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Words' })).toHaveFocus());
    expect(screen.getByText('calm clear')).toBeInTheDocument();
  });
});
