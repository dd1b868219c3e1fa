import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OwnCategory } from '@shared/contract';
import {
  MESSAGE_CHANGED_MESSAGE,
  OWN_CATEGORY_NAME_MAX,
  OWN_MESSAGE_TEXT_MAX,
  ownCategoryNameTaken,
  ownMessageWriteSchema,
} from '@shared/contract/own';
import { API, fillPath } from '@shared/contract/paths';
import { DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import type { SubscriptionPlan } from '@shared/constants';
import {
  fakeApi,
  jsonResponse,
  planFailingOnce,
  planStateFor,
  pressToastAction,
  renderWithProviders,
} from '@web/test/render';
import { everyElementShown } from '@web/test/shown';
import { changedMeanwhile } from '@web/components/ui/inline-edit';
import { CATEGORY_ROWS_SHOWN } from '@web/components/ui/folded-rows';
import { DRAFT_BACK } from '@web/components/ui/draft-back';
import { sessionStore } from '@web/lib/session';
import { expectIsolated, STORED_OVERRIDE } from '@web/test/isolated';
import { MyMessagesPanel, OWN_EMPTY } from './my-messages-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));
afterEach(() => {
  vi.clearAllMocks();
  sessionStore.clear();
  sessionStorage.clear();
});

/** The server's own-messages calls over one person's categories, with a message limit. */
function ownServer(limit = 10, plan: SubscriptionPlan = 'basic') {
  const categories: OwnCategory[] = [];
  let nextId = 1;
  const api = fakeApi({
    [`GET ${API.plan}`]: () => planStateFor(plan),
    [`GET ${API.myCategories}`]: () => categories,
    [`POST ${API.myCategories}`]: ({ body }) => {
      const { name } = body as { name: string };
      // The server's refusal of a name the person has already, whatever its case.
      const taken = categories.find((category) => category.name.toLowerCase() === name.trim().toLowerCase());
      if (taken) return jsonResponse(400, { name: [ownCategoryNameTaken(taken.name)] });
      const created = { id: nextId++, name, messages: [] };
      categories.push(created);
      return jsonResponse(201, created);
    },
    [`PUT ${API.myCategoriesOrder}`]: ({ body }) => {
      const { ids } = body as { ids: number[] };
      categories.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
      return categories;
    },
    [`PUT ${fillPath(API.myCategoryMessagesOrder, { id: 1 })}`]: ({ body }) => {
      const { ids } = body as { ids: number[] };
      const category = categories.find((c) => c.id === 1)!;
      category.messages.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
      return category;
    },
    // An edit is refused when it began from a text the message no longer has (changed in another tab).
    [`PATCH ${fillPath(API.myMessage, { id: 5 })}`]: ({ body }) => {
      const { message_text, previous_text } = body as { message_text: string; previous_text?: string };
      const message = categories[0]!.messages.find((candidate) => candidate.id === 5)!;
      if (
        previous_text !== undefined &&
        previous_text !== message.message_text &&
        message_text !== message.message_text
      )
        return jsonResponse(409, { detail: MESSAGE_CHANGED_MESSAGE, code: 'changed_meanwhile' });
      message.message_text = message_text;
      return categories[0];
    },
    [`DELETE ${fillPath(API.myCategory, { id: 1 })}`]: () => {
      categories.splice(0, 1);
      return jsonResponse(204);
    },
    ...Object.fromEntries(
      [5, 7].map((id) => [
        `DELETE ${fillPath(API.myMessage, { id })}`,
        () => {
          categories[0]!.messages = categories[0]!.messages.filter((message) => message.id !== id);
          return jsonResponse(204);
        },
      ]),
    ),
    [`POST ${fillPath(API.myCategoryMessages, { id: 1 })}`]: ({ body }) => {
      // The server's own check of the text (trimmed, then at most 200 characters).
      const checked = ownMessageWriteSchema.safeParse(body);
      if (!checked.success)
        return jsonResponse(400, { message_text: checked.error.issues.map((issue) => issue.message) });
      if (categories[0]!.messages.length >= limit)
        return jsonResponse(403, {
          detail: `Your plan keeps up to ${limit} messages of your own. The Intermediate plan keeps more.`,
          code: 'plan_limit',
          required_plan: 'intermediate',
        });
      categories[0]!.messages.push({
        id: 100 + nextId++,
        message_text: (body as { message_text: string }).message_text,
      });
      return jsonResponse(201, categories[0]);
    },
  });
  return { api, categories };
}

describe('MyMessagesPanel', () => {
  it('says under its heading why export and sharing wait when the plan could not be read, and Try again hands the keyboard to the lock (decision 140)', async () => {
    everyElementShown();
    const plan = planFailingOnce();
    fakeApi({ [`GET ${API.plan}`]: plan.read, [`GET ${API.myCategories}`]: () => [] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    const panel = screen.getByRole('region', { name: 'My messages' });
    // Quiet: the screen's one alert stands in the theme picker, far from here on a phone.
    const line = await within(panel).findByText('Your plan could not be loaded: export and sharing show once it is.');
    expect(within(panel).queryByRole('alert')).toBeNull();
    // Own messages are every plan's: they wait on nothing.
    expect(within(panel).getByLabelText('New category of your own')).toBeInTheDocument();
    const button = within(panel).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    plan.answer(planStateFor('basic'));
    await vi.waitFor(() => expect(within(panel).getByRole('button', { name: 'Export & share Pro' })).toHaveFocus());
    expect(line).not.toBeInTheDocument();
  });

  it('creates a category, writes messages into it and adds it to the playlist', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    const onAdd = vi.fn();
    const onAddMessage = vi.fn();
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={onAdd} onAddMessage={onAddMessage} />);
    expect(await screen.findByText(OWN_EMPTY)).toBeInTheDocument();

    await user.type(screen.getByLabelText('New category of your own'), 'Mornings');
    await user.click(screen.getByRole('button', { name: 'Add the category' }));
    const addToPlaylist = await screen.findByRole('button', { name: 'Add Mornings to playlist' });
    expect(addToPlaylist).toBeDisabled();

    await user.type(screen.getByLabelText('New message in Mornings'), 'I begin the day calm.');
    await user.click(screen.getByRole('button', { name: 'Add the message to Mornings' }));
    const card = (await screen.findByText('I begin the day calm.')).closest('li')!.parentElement!.closest('li')!;
    expect(within(card).getByRole('button', { name: 'Add Mornings to playlist' })).toBeEnabled();
    await user.click(within(card).getByRole('button', { name: 'Add Mornings to playlist' }));

    expect(onAdd).toHaveBeenCalledWith({
      id: 1,
      name: 'Mornings',
      messages: [{ id: expect.any(Number), message_text: 'I begin the day calm.' }],
    });
    await user.click(within(card).getByRole('button', { name: 'Add "I begin the day calm." to playlist' }));
    expect(onAddMessage).toHaveBeenCalledWith({
      id: expect.any(Number),
      message_text: 'I begin the day calm.',
      source: 'own',
    });
    expect(server.api.unanswered).toEqual([]);
  });

  it('refuses to save over a message changed in another tab meanwhile, shows its newer text, and saves when asked again', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Edit message "I rest well."' }));
    const field = screen.getByRole('textbox', { name: 'message "I rest well."' });
    await user.clear(field);
    await user.type(field, 'I sleep deeply.');
    // Another tab saves first.
    server.categories[0]!.messages[0]!.message_text = 'I rest deeply.';

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(changedMeanwhile('I rest deeply.'));
    // Said once, where the person is: no toast says it again (the server's words) over the top of the screen.
    expect(toast.error).not.toHaveBeenCalled();
    expect(field).toHaveValue('I sleep deeply.');
    expect(server.categories[0]!.messages[0]!.message_text).toBe('I rest deeply.');

    // Seen, and saved again: it takes the newer text's place.
    await user.keyboard('{Enter}');
    expect(await screen.findByText('I sleep deeply.')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Message saved.');
    expect(server.api.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { message_text: 'I sleep deeply.', previous_text: 'I rest well.' },
      { message_text: 'I sleep deeply.', previous_text: 'I rest deeply.' },
    ]);
    expect(screen.getByRole('button', { name: 'Edit message "I sleep deeply."' })).toHaveFocus();
  });

  it('reads the messages again when its tab shows again, so what another tab wrote is there before editing here', async () => {
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    // The app's query client, which reads nothing again on its own when a tab shows again.
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />, {
      appQueryClient: true,
    });
    expect(await screen.findByText('I rest well.')).toBeInTheDocument();
    server.categories[0]!.messages[0]!.message_text = 'I rest deeply.';
    fireEvent(document, new Event('visibilitychange', { bubbles: true }));
    expect(await screen.findByText('I rest deeply.')).toBeInTheDocument();
  });

  it('deletes a message after asking, and Undo writes it again', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Delete the message "I rest well."' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const deleteButton = { name: 'Delete the message "I rest well."' };
    await waitFor(() => expect(screen.queryByRole('button', deleteButton)).not.toBeInTheDocument());

    pressToastAction('Message deleted.');
    expect(await screen.findByRole('button', deleteButton)).toBeInTheDocument();
    expect(server.api.calls.filter((call) => call.method !== 'GET').map((call) => call.method)).toEqual([
      'DELETE',
      'POST',
    ]);
  });

  it('hands the keyboard from a deleted message to the next row’s Delete, and from the last one to the field that adds a message (decision 113)', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({
      id: 1,
      name: 'Evenings',
      messages: [
        { id: 5, message_text: 'I rest well.' },
        { id: 7, message_text: 'I slow down.' },
      ],
    });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    (await screen.findByRole('button', { name: 'Delete the message "I rest well."' })).focus();
    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Delete' })
      .focus();
    await user.keyboard('{Enter}');
    const next = await screen.findByRole('button', { name: 'Delete the message "I slow down."' });
    await vi.waitFor(() => expect(next).toHaveFocus());
    expect(screen.queryByText('I rest well.')).toBeNull();

    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Delete' })
      .focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: 'New message in Evenings' })).toHaveFocus());
    expect(screen.queryByText('I slow down.')).toBeNull();
  });

  it('hands the keyboard from the last category deleted to the field that adds one (decision 151)', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    (await screen.findByRole('button', { name: 'Delete Evenings' })).focus();
    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Delete' })
      .focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText(OWN_EMPTY)).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: 'New category of your own' })).toHaveFocus());
  });

  it('asks about the message whose delete was pressed, and Cancel keeps it and goes back to that button', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push(
      { id: 1, name: 'Evenings', messages: [{ id: 4, message_text: 'I slow down.' }] },
      { id: 2, name: 'Nights', messages: [{ id: 5, message_text: 'I rest well.' }] },
    );
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    const second = await screen.findByRole('button', { name: 'Delete the message "I rest well."' });
    await user.click(second);
    const dialog = await screen.findByRole('dialog', { name: 'Delete this message?' });
    expect(dialog).toHaveAccessibleDescription('I rest well.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(second).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Delete the message "I slow down."' }));
    expect(await screen.findByRole('dialog')).toHaveAccessibleDescription('I slow down.');
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Delete the message "I slow down."' })).toHaveFocus();
    expect(server.api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('moves a category and a message up or down, sending the whole new order', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push(
      {
        id: 1,
        name: 'Evenings',
        messages: [
          { id: 5, message_text: 'I rest well.' },
          { id: 6, message_text: 'I let the day go.' },
        ],
      },
      { id: 2, name: 'Mornings', messages: [] },
    );
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Move Evenings up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Mornings down' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move Mornings up' }));
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: /^Move \w+ up$/ }).map((b) => b.getAttribute('aria-label'))).toEqual(
        ['Move Mornings up', 'Move Evenings up'],
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Move "I rest well." down' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move "I let the day go." up' })).toBeDisabled());
    expect(server.api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { ids: [2, 1] },
      { ids: [6, 5] },
    ]);
  });

  it('draws a message row in a few elements, its buttons’ icons in CSS: a thousand rows are a page', async () => {
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    const row = (await screen.findByText('I rest well.')).closest('li')!;
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Edit message "I rest well."',
      'Move "I rest well." up',
      'Move "I rest well." down',
      'Add "I rest well." to playlist',
      'Delete the message "I rest well."',
    ]);
    // Lucide's SVGs were three to six elements a button: twenty-seven a row.
    expect(row.querySelectorAll('svg')).toHaveLength(0);
    expect(row.querySelectorAll('*').length).toBeLessThanOrEqual(8);
  });

  /** One category (id 1) of `count` messages, "Message 1." on, in the panel. */
  async function longCategory(count: number) {
    const server = ownServer(100);
    server.categories.push({
      id: 1,
      name: 'Long',
      messages: Array.from({ length: count }, (_, i) => ({ id: 1000 + i, message_text: `Message ${i + 1}.` })),
    });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await screen.findByText('Message 1.');
    return server;
  }
  const row = (text: string) => screen.getByText(text).closest('li')!;

  it(`shows a long category's first ${CATEGORY_ROWS_SHOWN} messages; one moved among the others unfolds them`, async () => {
    const user = userEvent.setup();
    const server = await longCategory(CATEGORY_ROWS_SHOWN + 2);
    const last = `Message ${CATEGORY_ROWS_SHOWN}.`;
    expect(row(last)).not.toHaveAttribute('hidden');
    // The others are in the page (the browser's find finds them) but folded away, out of reach.
    expect(row(`Message ${CATEGORY_ROWS_SHOWN + 1}.`)).toHaveAttribute('hidden', 'until-found');
    expect(screen.queryByRole('button', { name: `Edit message "Message ${CATEGORY_ROWS_SHOWN + 2}."` })).toBeNull();
    // The last one shown, moved down, goes among them: they unfold, and its button keeps the focus.
    const down = screen.getByRole('button', { name: `Move "${last}" down` });
    await user.click(down);
    expect(row(`Message ${CATEGORY_ROWS_SHOWN + 1}.`)).not.toHaveAttribute('hidden');
    expect(screen.queryByRole('button', { name: /^Show the other/ })).toBeNull();
    await waitFor(() => expect(server.api.calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(down).toHaveFocus();
  });

  it('shows the others of a long category when asked, or when a message is added to it', async () => {
    const user = userEvent.setup();
    await longCategory(CATEGORY_ROWS_SHOWN + 2);
    await user.click(screen.getByRole('button', { name: 'Show the other 2 messages' }));
    expect(screen.getByRole('button', { name: `Edit message "Message ${CATEGORY_ROWS_SHOWN + 1}."` })).toHaveFocus();
    expect(row(`Message ${CATEGORY_ROWS_SHOWN + 2}.`)).not.toHaveAttribute('hidden');
    cleanup();

    await longCategory(CATEGORY_ROWS_SHOWN + 2);
    await user.type(screen.getByLabelText('New message in Long'), 'I come last.');
    await user.click(screen.getByRole('button', { name: 'Add the message to Long' }));
    // It comes last, and is shown there, not folded away with the others.
    expect(await screen.findByText('I come last.')).toBeInTheDocument();
    await waitFor(() => expect(row('I come last.')).not.toHaveAttribute('hidden'));
  });

  it('gives back an edit of a message typed before the session ended on its row, folded among others or not', async () => {
    const user = userEvent.setup();
    const jwt = `h.${btoa(JSON.stringify({ user_id: 5 })).replace(/=+$/, '')}.s`;
    sessionStore.setTokens({ access: jwt, refresh: 'r' }, 'ada@example.com');
    const folded = `Message ${CATEGORY_ROWS_SHOWN + 2}.`;
    await longCategory(CATEGORY_ROWS_SHOWN + 2);
    await user.click(screen.getByRole('button', { name: 'Show the other 2 messages' }));
    await user.click(screen.getByRole('button', { name: `Edit message "${folded}"` }));
    await user.type(screen.getByRole('textbox', { name: `message "${folded}"` }), ' Truly.');
    await user.type(screen.getByLabelText('New message in Long'), 'I come back.');
    // The session ends: the page goes to login, and the same person comes back to it.
    cleanup();

    await longCategory(CATEGORY_ROWS_SHOWN + 2);
    const field = screen.getByRole('textbox', { name: `message "${folded}"` });
    expect(field).toHaveValue(`${folded} Truly.`);
    expect(field.closest('li')).not.toHaveAttribute('hidden');
    expect(field).toHaveAccessibleDescription(DRAFT_BACK);
    expect(screen.getByLabelText('New message in Long')).toHaveValue('I come back.');
  });

  it('says a name is one the person has already, whatever its case, and keeps the text typed', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'BobCat', messages: [] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await screen.findByText('BobCat');
    await user.type(screen.getByLabelText('New category of your own'), 'bobcat');
    await user.click(screen.getByRole('button', { name: 'Add the category' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('You already have a category named “\u2068BobCat\u2069”.'),
    );
    expect(screen.getByLabelText('New category of your own')).toHaveValue('bobcat');
    expect(server.categories.map((category) => category.name)).toEqual(['BobCat']);
  });

  it('quotes a name stored with a direction control in its own box: the delete dialog’s title and the toast', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: STORED_OVERRIDE, messages: [] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: `Delete ${STORED_OVERRIDE}` }));
    const title = within(screen.getByRole('dialog')).getByRole('heading');
    expect(title).toHaveTextContent(`Delete "${STORED_OVERRIDE}"?`);
    expectIsolated(title.querySelector('bdi')!);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(`Deleted \u2068${STORED_OVERRIDE}\u2069.`));
  });

  it('says when the plan keeps no more messages, and keeps the text typed', async () => {
    const user = userEvent.setup();
    const server = ownServer(0);
    server.categories.push({ id: 1, name: 'Evenings', messages: [] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await user.type(await screen.findByLabelText('New message in Evenings'), 'I rest well.');
    await user.click(screen.getByRole('button', { name: 'Add the message to Evenings' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Your plan keeps up to 0 messages of your own. The Intermediate plan keeps more.',
      ),
    );
    expect(screen.getByLabelText('New message in Evenings')).toHaveValue('I rest well.');
  });

  it('counts a message near the server’s limit as the server does, and refuses a longer one uncut, before sending it', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    const field = await screen.findByLabelText('New message in Evenings');
    const add = screen.getByRole('button', { name: 'Add the message to Evenings' });

    // Far from the limit, no count.
    await user.click(field);
    await user.paste('a'.repeat(159));
    expect(screen.queryByText(/\/ 200$/)).not.toBeInTheDocument();
    await user.type(field, 'a');
    expect(screen.getByText('160 / 200')).toBeInTheDocument();

    // A long text pasted stays whole: it is said to be too long, and nothing is sent.
    await user.clear(field);
    const pasted = `I am calm. ${'x'.repeat(219)}`;
    await user.paste(pasted);
    expect(field).toHaveValue(pasted);
    expect(screen.getByText('230 / 200')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ensure this field has no more than 200 characters.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.click(add);
    expect(field).toHaveValue(pasted);
    expect(field).toHaveFocus();
    expect(server.api.calls.filter((call) => call.method === 'POST')).toEqual([]);

    // Characters, as the server counts them: 200 emoji (400 UTF-16 units) and spaces around them are taken.
    await user.clear(field);
    const emoji = '🌙'.repeat(OWN_MESSAGE_TEXT_MAX);
    await user.paste(`  ${emoji} `);
    expect(screen.getByText('200 / 200')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(add);
    expect(await screen.findByText(emoji)).toBeInTheDocument();
    expect(server.api.calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { message_text: emoji },
    ]);
  });

  it('counts a message edited in place too, and does not save one over the limit', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Edit message "I rest well."' }));
    const field = screen.getByRole('textbox', { name: 'message "I rest well."' });
    await user.paste(' and more'.repeat(22));
    expect(field).toHaveValue(`I rest well.${' and more'.repeat(22)}`);
    expect(screen.getByText('210 / 200')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ensure this field has no more than 200 characters.');
    await user.keyboard('{Enter}');
    expect(field).toHaveFocus();
    expect(server.api.calls.filter((call) => call.method === 'PATCH')).toEqual([]);

    await user.keyboard('{Backspace}'.repeat(10));
    expect(screen.getByText('200 / 200')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.api.calls.filter((call) => call.method === 'PATCH')).toHaveLength(1));
    expect(toast.success).toHaveBeenCalledWith('Message saved.');
  });

  it('counts a category name near its 80 characters, new or renamed, and sends none over it', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    const added = await screen.findByLabelText('New category of your own');
    await user.click(added);
    await user.paste('n'.repeat(OWN_CATEGORY_NAME_MAX + 1));
    expect(screen.getByText(`81 / ${OWN_CATEGORY_NAME_MAX}`)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ensure this field has no more than 80 characters.');
    await user.click(screen.getByRole('button', { name: 'Add the category' }));
    await user.clear(added);

    await user.click(screen.getByRole('button', { name: 'Edit name of Evenings' }));
    const renamed = screen.getByRole('textbox', { name: 'name of Evenings' });
    await user.paste(' and the long quiet nights'.repeat(3));
    expect(screen.getByText(`86 / ${OWN_CATEGORY_NAME_MAX}`)).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(renamed).toHaveFocus();
    expect(server.api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('says at each of its fields, without sending, that a text holds a direction control inside (decision 063)', async () => {
    const user = userEvent.setup();
    const server = ownServer();
    server.categories.push({ id: 1, name: 'Evenings', messages: [{ id: 5, message_text: 'I rest well.' }] });
    renderWithProviders(<MyMessagesPanel isAdded={() => false} onAdd={vi.fn()} onAddMessage={vi.fn()} />);
    const fields = [
      await screen.findByLabelText('New message in Evenings'),
      screen.getByLabelText('New category of your own'),
    ];
    await user.click(screen.getByRole('button', { name: 'Edit name of Evenings' }));
    fields.push(screen.getByRole('textbox', { name: 'name of Evenings' }));
    await user.click(screen.getByRole('button', { name: 'Edit message "I rest well."' }));
    fields.push(screen.getByRole('textbox', { name: 'message "I rest well."' }));
    for (const field of fields) {
      await user.click(field);
      await user.paste('Sleep \u202etxt.exe');
      await user.keyboard('{Enter}');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(DIRECTION_CONTROL_REFUSED);
    }
    expect(server.api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
