import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OwnCategory } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import ThemedToaster from './themed-toaster';
import { OFFLINE_MESSAGE } from '@web/lib/change';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { everyElementShown } from '@web/test/shown';
import { MyMessagesPanel } from '@web/features/subliminals/components/my-messages-panel';

// A change that failed and then worked on a press again leaves only what is so now on screen
// (docs/decisions/150-a-retry-leaves-only-what-is-still-true.md), with sonner's own toaster.

afterEach(() => {
  act(() => toast.dismiss());
  sessionStore.clear();
});

/** The toasts on screen and not on their way out (sonner keeps a closing toast a moment). */
const shownToasts = () =>
  [...document.querySelectorAll<HTMLElement>('[data-sonner-toast][data-removed="false"]')].map(
    (shown) => shown.textContent,
  );

describe('My messages, a change pressed again', () => {
  it('offline and then added, says "Message added." alone: its own failure goes, another category’s stays', async () => {
    everyElementShown();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const categories: OwnCategory[] = [
      { id: 1, name: 'Evenings', messages: [] },
      { id: 2, name: 'Mornings', messages: [] },
    ];
    let offline = true;
    fakeApi({
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`GET ${API.myCategories}`]: () => categories,
      [`POST ${fillPath(API.myCategoryMessages, { id: 1 })}`]: ({ body }) => {
        if (offline) throw new TypeError('Failed to fetch');
        categories[0]!.messages.push({ id: 6, message_text: (body as { message_text: string }).message_text });
        return jsonResponse(201, categories[0]);
      },
      [`POST ${fillPath(API.myCategoryMessages, { id: 2 })}`]: () => jsonResponse(503, null),
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
    await user.type(await screen.findByRole('textbox', { name: 'New message in Mornings' }), 'I wake rested.{Enter}');
    const busy = 'The server could not answer just now. Please try again in a moment.';
    await waitFor(() => expect(shownToasts()).toEqual([busy]));
    await user.type(screen.getByRole('textbox', { name: 'New message in Evenings' }), 'I rest well.{Enter}');
    await waitFor(() => expect(shownToasts()).toEqual([OFFLINE_MESSAGE, busy]));

    offline = false;
    await user.click(screen.getByRole('button', { name: 'Add the message to Evenings' }));
    expect(await screen.findByText('I rest well.')).toBeInTheDocument();
    // Evenings' offline toast is over; Mornings' message is still not added, and its toast says so.
    await waitFor(() => expect(shownToasts()).toEqual(['Message added.', busy]));
  });
});
