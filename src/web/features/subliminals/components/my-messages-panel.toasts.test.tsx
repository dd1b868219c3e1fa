import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import type { OwnCategory } from '@shared/contract';
import { OWN_MESSAGE_CHANGED_CODE, OWN_MESSAGE_CHANGED_MESSAGE } from '@shared/contract/own';
import { API, fillPath } from '@shared/contract/paths';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { MyMessagesPanel } from './my-messages-panel';

// The toasts as a person sees them beside the list: sonner not mocked, and its toasts staying until taken away
// (the app's go after 5 s), so a toast left on screen is seen staying however slow the machine.

/** One message (id 5) that another tab has changed since this one read it. */
function changedElsewhere() {
  const categories: OwnCategory[] = [{ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] }];
  fakeApi({
    [`GET ${API.plan}`]: () => planStateFor('basic'),
    [`GET ${API.myCategories}`]: () => categories,
    [`PATCH ${fillPath(API.myMessage, { id: 5 })}`]: ({ body }) => {
      const { message_text, previous_text } = body as { message_text: string; previous_text: string };
      const message = categories[0]!.messages[0]!;
      if (previous_text !== message.message_text)
        return jsonResponse(409, { detail: OWN_MESSAGE_CHANGED_MESSAGE, code: OWN_MESSAGE_CHANGED_CODE });
      message.message_text = message_text;
      return categories[0];
    },
  });
  renderWithProviders(
    <>
      <MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />
      <Toaster duration={Infinity} />
    </>,
  );
  return categories;
}

async function refusedOnce(user: ReturnType<typeof userEvent.setup>, categories: OwnCategory[]) {
  await user.click(await screen.findByRole('button', { name: 'Edit message "I rest well."' }));
  const field = screen.getByRole('textbox', { name: 'message "I rest well."' });
  await user.clear(field);
  await user.type(field, 'I sleep deeply.');
  categories[0]!.messages[0]!.message_text = 'I rest deeply.';
  await user.keyboard('{Enter}');
  expect(await screen.findByText(OWN_MESSAGE_CHANGED_MESSAGE)).toBeInTheDocument();
}

describe('MyMessagesPanel’s toasts', () => {
  it('takes the refusal of a message changed meanwhile away once the edit is saved', async () => {
    const user = userEvent.setup();
    const categories = changedElsewhere();
    await refusedOnce(user, categories);

    await user.keyboard('{Enter}');
    expect(await screen.findByText('Message saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(OWN_MESSAGE_CHANGED_MESSAGE)).not.toBeInTheDocument());
  });

  it('takes the refusal away when the edit is cancelled, keeping the newer text', async () => {
    const user = userEvent.setup();
    const categories = changedElsewhere();
    await refusedOnce(user, categories);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('I rest deeply.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(OWN_MESSAGE_CHANGED_MESSAGE)).not.toBeInTheDocument());
  });
});
