import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OwnCategory } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import ThemedToaster, { undoNotDone } from './themed-toaster';
import { GONE_MEANWHILE, OFFLINE_MESSAGE } from '@web/lib/change';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { everyElementShown } from '@web/test/shown';
import { MyMessagesPanel } from '@web/features/subliminals/components/my-messages-panel';

// An Undo that fails comes back (docs/decisions/144-an-undo-that-fails-comes-back.md), with sonner's own toaster: the
// toast is offered again by app/themed-toaster.tsx, which every Undo goes through.

afterEach(() => {
  act(() => toast.dismiss());
  sessionStore.clear();
  vi.unstubAllGlobals();
});

const OFFLINE_LINE = undoNotDone(new TypeError('Failed to fetch'));

/**
 * "I rest well." deleted from My messages, its toast shown with Undo; the message's write-back (Undo) answered as
 * `restore` says: the network down (a TypeError, as fetch fails), a status, or written.
 */
async function deletedWithUndo() {
  everyElementShown();
  const categories: OwnCategory[] = [{ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] }];
  const state = { restore: 'written' as 'written' | 'offline' | 'gone' };
  const api = fakeApi({
    [`GET ${API.plan}`]: () => planStateFor('basic'),
    [`GET ${API.myCategories}`]: () => categories,
    [`DELETE ${fillPath(API.myMessage, { id: 5 })}`]: () => {
      categories[0]!.messages = [];
      return jsonResponse(204);
    },
    [`POST ${fillPath(API.myCategoryMessages, { id: 1 })}`]: ({ body }) => {
      if (state.restore === 'offline') throw new TypeError('Failed to fetch');
      if (state.restore === 'gone') return jsonResponse(404, { detail: 'Not found.' });
      categories[0]!.messages.push({ id: 6, message_text: (body as { message_text: string }).message_text });
      return jsonResponse(201, categories[0]);
    },
  });
  const user = userEvent.setup();
  renderWithProviders(
    <>
      <main id="main">
        <h1>Subliminals</h1>
        <MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />
      </main>
      <ThemedToaster />
    </>,
  );
  await user.click(await screen.findByRole('button', { name: 'Delete the message "I rest well."' }));
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
  await screen.findByText('Message deleted.');
  const writes = () => api.calls.filter((call) => call.method === 'POST').length;
  return { categories, state, writes };
}

/**
 * The one Undo of the toasts on screen and not on their way out (sonner keeps a closing toast a moment), once it is
 * another than `before`: the one of the toast come back.
 */
async function theUndo(before?: HTMLElement): Promise<HTMLElement> {
  let undo: HTMLElement | undefined;
  await waitFor(() => {
    const undos = [...document.querySelectorAll<HTMLElement>('[data-sonner-toast][data-removed="false"]')].flatMap(
      (shown) => within(shown).queryAllByRole('button', { name: 'Undo' }),
    );
    expect(undos).toHaveLength(1);
    expect(undos[0]).not.toBe(before);
    undo = undos[0];
  });
  return undo!;
}

const toastOf = (undo: HTMLElement) => undo.closest<HTMLElement>('[data-sonner-toast]')!;

describe('an Undo that fails', () => {
  it('offline, comes back with a line saying so, and pressed again once online puts the message back once', async () => {
    const { categories, state, writes } = await deletedWithUndo();
    state.restore = 'offline';
    const first = await theUndo();
    act(() => first.click());
    const again = await theUndo(first);
    // The same words and a line saying why, the offline words said once: in the toast come back.
    expect(within(toastOf(again)).getByText('Message deleted.')).toBeInTheDocument();
    expect(within(toastOf(again)).getByText(OFFLINE_LINE)).toBeInTheDocument();
    expect(screen.queryByText(OFFLINE_MESSAGE)).toBeNull();
    // The keyboard stays on the page where the delete left it (its category's new-message field), not in the toasts
    // (decision 138).
    expect(screen.getByRole('textbox', { name: 'New message in Evenings' })).toHaveFocus();

    state.restore = 'written';
    act(() => again.click());
    expect(await screen.findByText('Message restored.')).toBeInTheDocument();
    expect(await screen.findByText('I rest well.')).toBeInTheDocument();
    expect(categories[0]!.messages.map((message) => message.message_text)).toEqual(['I rest well.']);
    expect(writes()).toBe(2);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
  });

  it('offline, stays whatever the connection does until it is pressed again or closed (decision 150)', async () => {
    const { state } = await deletedWithUndo();
    state.restore = 'offline';
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const first = await theUndo();
      act(() => first.click());
      const again = await theUndo(first);
      // A minute offline: the toast come back is still there to be pressed.
      act(() => vi.advanceTimersByTime(60_000));
      expect(toastOf(again)).toHaveAttribute('data-removed', 'false');

      // Back online, a person who was not looking finds it still there minutes later.
      onLine.mockReturnValue(true);
      act(() => window.dispatchEvent(new Event('online')));
      act(() => vi.advanceTimersByTime(10 * 60_000));
      expect(again).toBeInTheDocument();
      expect(toastOf(again)).toHaveAttribute('data-removed', 'false');

      // Closed, it goes.
      act(() => within(toastOf(again)).getByRole('button', { name: 'Close toast' }).click());
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
    } finally {
      vi.useRealTimers();
      onLine.mockRestore();
    }
  });

  it('comes back as often as it fails for a reason that may pass, and its returned Undo pressed twice runs once', async () => {
    const { categories, state, writes } = await deletedWithUndo();
    state.restore = 'offline';
    const first = await theUndo();
    act(() => first.click());
    const again = await theUndo(first);
    act(() => again.click());
    const returned = await theUndo(again);
    expect(writes()).toBe(2);
    expect(within(toastOf(returned)).getByText(OFFLINE_LINE)).toBeInTheDocument();

    state.restore = 'written';
    act(() => {
      returned.click();
      returned.click();
    });
    expect(await screen.findByText('Message restored.')).toBeInTheDocument();
    expect(writes()).toBe(3);
    expect(categories[0]!.messages).toHaveLength(1);
  });

  it('for a reason that will not pass (the category gone: 404) says so plainly once and offers no Undo again', async () => {
    const { state, writes } = await deletedWithUndo();
    state.restore = 'gone';
    act(() => screen.getByRole('button', { name: 'Undo' }).click());
    expect(await screen.findByText(GONE_MEANWHILE)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
    expect(screen.queryByText(OFFLINE_LINE)).toBeNull();
    expect(screen.getAllByText(GONE_MEANWHILE)).toHaveLength(1);
    expect(writes()).toBe(1);
  });
});
