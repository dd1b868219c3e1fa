import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminCategory } from '@shared/contract';
import {
  changedMeanwhileMessage,
  LIST_CHANGED_CODE,
  LIST_CHANGED_MESSAGE,
  MESSAGE_CHANGED_MESSAGE,
} from '@shared/contract/portal-plain';
import { fillPath } from '@shared/contract/paths';
import { CONTROL_CHARACTER_REFUSED, DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import { ADMIN_API, CATEGORY_NAME_MAX, MESSAGE_TEXT_MAX } from '@shared/contract/admin';
import { CATEGORY_ROWS_SHOWN } from '@web/components/ui/folded-rows';
import { changedMeanwhile } from '@web/components/ui/inline-edit';
import { LIST_CHANGED_MEANWHILE } from '@web/lib/change';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { MessagesPanel } from './messages-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

function categoriesServer(categories: AdminCategory[]) {
  return fakeApi({
    [`GET ${ADMIN_API.categories}`]: () => categories,
    [`POST ${ADMIN_API.categoriesImport}`]: ({ body }) => {
      const file = body as { categories: Array<{ messages: string[] }> };
      return {
        categories_created: 1,
        categories_updated: file.categories.length - 1,
        messages: file.categories.reduce((n, c) => n + c.messages.length, 0),
      };
    },
    [`POST ${ADMIN_API.categories}`]: ({ body }) => {
      const { name } = body as { name: string };
      if (categories.some((category) => category.name === name))
        return jsonResponse(400, { name: ['A category with this name already exists.'] });
      const created = { id: categories.length + 1, name, position: categories.length, messages: [] };
      categories.push(created);
      return jsonResponse(201, created);
    },
  });
}

/** A category of two messages, made afresh for each test (a test's server changes it). */
const calmWithTwoMessages = (): AdminCategory => ({
  id: 1,
  name: 'Calm',
  position: 0,
  messages: [
    { id: 5, message_text: 'I rest well.', position: 0 },
    { id: 6, message_text: 'I breathe slowly.', position: 1 },
  ],
});

describe('MessagesPanel', () => {
  it("names each message row's buttons by its text, so a list of buttons read aloud tells the rows apart", async () => {
    categoriesServer([calmWithTwoMessages()]);
    renderWithProviders(<MessagesPanel />);
    const row = (await screen.findByText('I breathe slowly.')).closest('li')!;
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Edit message "I breathe slowly."',
      'Move "I breathe slowly." up',
      'Move "I breathe slowly." down',
      'Delete the message "I breathe slowly."',
    ]);
  });

  it('creates a category, reloads the list and clears the field', async () => {
    const user = userEvent.setup();
    categoriesServer([]);
    renderWithProviders(<MessagesPanel />);
    expect(
      await screen.findByText('No message categories yet. Create one above or import a file.'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('New category name'), '  Calm  ');
    await user.click(screen.getByRole('button', { name: 'Add the category' }));

    expect(await screen.findByRole('button', { name: 'Edit name of Calm' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Created \u2068Calm\u2069.');
    expect(screen.getByLabelText('New category name')).toHaveValue('');
  });

  it('shows a category created after the others, far down the list, with the keyboard on its new message', async () => {
    const user = userEvent.setup();
    categoriesServer([
      { id: 1, name: 'Calm', position: 0, messages: [{ id: 5, message_text: 'I rest well.', position: 0 }] },
    ]);
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    renderWithProviders(<MessagesPanel />);
    await user.type(await screen.findByLabelText('New category name'), 'Focus{Enter}');

    await vi.waitFor(() => expect(screen.getByLabelText('New message in Focus')).toHaveFocus());
    expect(scrolled.mock.contexts.at(-1)).toContainElement(screen.getByLabelText('New message in Focus'));
    // It stays there: the next words typed are the category's first message.
    await user.keyboard('I see clearly.');
    expect(screen.getByLabelText('New message in Focus')).toHaveValue('I see clearly.');
    expect(screen.getByLabelText('New message in Calm')).not.toHaveFocus();
    scrolled.mockRestore();
  });

  it('keeps the keyboard on the next row after a message or a category is deleted, or the one before at the end', async () => {
    const user = userEvent.setup();
    const categories: AdminCategory[] = [calmWithTwoMessages(), { id: 2, name: 'Sleep', position: 1, messages: [] }];
    fakeApi({
      [`GET ${ADMIN_API.categories}`]: () => categories,
      [`DELETE ${fillPath(ADMIN_API.message, { id: 5 })}`]: () => {
        categories[0]!.messages.shift();
        return jsonResponse(204);
      },
      [`DELETE ${fillPath(ADMIN_API.category, { id: 2 })}`]: () => {
        categories.pop();
        return jsonResponse(204);
      },
    });
    renderWithProviders(<MessagesPanel />);
    const deleteFirst = (await screen.findByText('I rest well.')).closest('li')!;
    await user.click(within(deleteFirst).getByRole('button', { name: 'Delete the message "I rest well."' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.queryByText('I rest well.')).toBeNull());
    const next = screen.getByText('I breathe slowly.').closest('li')!;
    await vi.waitFor(() =>
      expect(within(next).getByRole('button', { name: 'Delete the message "I breathe slowly."' })).toHaveFocus(),
    );

    await user.click(screen.getByRole('button', { name: 'Delete Sleep' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Sleep' })).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Delete Calm' })).toHaveFocus());
  });

  it('hands the keyboard from a category’s last message to its new-message field, and from the last category to the field that adds one (decision 151)', async () => {
    const user = userEvent.setup();
    const categories: AdminCategory[] = [
      { id: 2, name: 'Sleep', position: 0, messages: [{ id: 5, message_text: 'I rest well.', position: 0 }] },
    ];
    fakeApi({
      [`GET ${ADMIN_API.categories}`]: () => categories,
      [`DELETE ${fillPath(ADMIN_API.message, { id: 5 })}`]: () => {
        categories[0]!.messages.pop();
        return jsonResponse(204);
      },
      [`DELETE ${fillPath(ADMIN_API.category, { id: 2 })}`]: () => {
        categories.pop();
        return jsonResponse(204);
      },
    });
    renderWithProviders(<MessagesPanel />);
    await user.click(await screen.findByRole('button', { name: 'Delete the message "I rest well."' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: 'New message in Sleep' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Delete Sleep' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: 'New category name' })).toHaveFocus());
  });

  it('refuses to save over a message another tab or staff member changed meanwhile, shows its newer text, and saves when asked again', async () => {
    const user = userEvent.setup();
    const categories: AdminCategory[] = [
      { id: 1, name: 'Calm', position: 0, messages: [{ id: 5, message_text: 'I rest well.', position: 0 }] },
    ];
    const server = fakeApi({
      [`GET ${ADMIN_API.categories}`]: () => categories,
      // The server's check: an edit begun from a text the message no longer has is refused.
      [`PATCH ${fillPath(ADMIN_API.message, { id: 5 })}`]: ({ body }) => {
        const { message_text, previous_text } = body as { message_text: string; previous_text?: string };
        const message = categories[0]!.messages[0]!;
        if (previous_text !== message.message_text && message_text !== message.message_text)
          return jsonResponse(409, { detail: MESSAGE_CHANGED_MESSAGE, code: 'changed_meanwhile' });
        message.message_text = message_text;
        return categories[0];
      },
    });
    renderWithProviders(<MessagesPanel />);
    await user.click(await screen.findByRole('button', { name: 'Edit message "I rest well."' }));
    const field = screen.getByRole('textbox', { name: 'message "I rest well."' });
    await user.clear(field);
    await user.type(field, 'I sleep deeply.');
    // Another tab saves first.
    categories[0]!.messages[0]!.message_text = 'I rest deeply.';

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(changedMeanwhile('I rest deeply.'));
    expect(toast.error).not.toHaveBeenCalled();
    expect(field).toHaveValue('I sleep deeply.');

    await user.keyboard('{Enter}');
    expect(await screen.findByText('I sleep deeply.')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Message saved.');
    expect(server.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { message_text: 'I sleep deeply.', previous_text: 'I rest well.' },
      { message_text: 'I sleep deeply.', previous_text: 'I rest deeply.' },
    ]);
  });

  it('refuses to rename a category another tab renamed meanwhile, shows its newer name, and renames it when asked again', async () => {
    const user = userEvent.setup();
    const categories: AdminCategory[] = [{ id: 1, name: 'Calm', position: 0, messages: [] }];
    const server = fakeApi({
      [`GET ${ADMIN_API.categories}`]: () => categories,
      [`PATCH ${fillPath(ADMIN_API.category, { id: 1 })}`]: ({ body }) => {
        const { name, previous_name } = body as { name: string; previous_name?: string };
        if (previous_name !== categories[0]!.name && name !== categories[0]!.name)
          return jsonResponse(409, { detail: changedMeanwhileMessage('name'), code: 'changed_meanwhile' });
        categories[0]!.name = name;
        return categories[0];
      },
    });
    renderWithProviders(<MessagesPanel />);
    await user.click(await screen.findByRole('button', { name: 'Edit name of Calm' }));
    const field = screen.getByRole('textbox', { name: 'name of Calm' });
    await user.clear(field);
    await user.type(field, 'Rest');
    // Another tab renames it first.
    categories[0]!.name = 'Stillness';

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(changedMeanwhile('Stillness'));
    expect(toast.error).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'name of Stillness' })).toHaveValue('Rest');

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Edit name of Rest' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Renamed to \u2068Rest\u2069.');
    expect(server.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { name: 'Rest', previous_name: 'Calm' },
      { name: 'Rest', previous_name: 'Stillness' },
    ]);
  });

  it('says that the list changed meanwhile when an order from a stale list is refused, and shows the list as it is', async () => {
    const user = userEvent.setup();
    const categories: AdminCategory[] = [
      { id: 1, name: 'Calm', position: 0, messages: [] },
      { id: 2, name: 'Sleep', position: 1, messages: [] },
    ];
    fakeApi({
      [`GET ${ADMIN_API.categories}`]: () => categories,
      [`PUT ${ADMIN_API.categoriesOrder}`]: () =>
        jsonResponse(409, { detail: LIST_CHANGED_MESSAGE, code: LIST_CHANGED_CODE }),
    });
    renderWithProviders(<MessagesPanel />);
    await screen.findByRole('button', { name: 'Edit name of Sleep' });
    // Another tab adds a category.
    categories.push({ id: 3, name: 'Focus', position: 2, messages: [] });

    await user.click(screen.getByRole('button', { name: 'Move Calm down' }));
    expect(await screen.findByRole('button', { name: 'Edit name of Focus' })).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(LIST_CHANGED_MEANWHILE);
  });

  it('reads the library again when its tab shows again, so what another tab wrote is there before editing here', async () => {
    const categories: AdminCategory[] = [
      { id: 1, name: 'Calm', position: 0, messages: [{ id: 5, message_text: 'I rest well.', position: 0 }] },
    ];
    fakeApi({ [`GET ${ADMIN_API.categories}`]: () => categories });
    // The app's query client, which reads nothing again on its own when a tab shows again.
    renderWithProviders(<MessagesPanel />, { appQueryClient: true });
    expect(await screen.findByText('I rest well.')).toBeInTheDocument();
    categories[0]!.messages[0]!.message_text = 'I rest deeply.';
    fireEvent(document, new Event('visibilitychange', { bubbles: true }));
    expect(await screen.findByText('I rest deeply.')).toBeInTheDocument();
  });

  it('says at the field that a name or a message holds a control character, and sends neither', async () => {
    const user = userEvent.setup();
    const { calls } = categoriesServer([{ id: 1, name: 'Calm', position: 0, messages: [] }]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByRole('button', { name: 'Edit name of Calm' });

    await user.click(screen.getByLabelText('New category name'));
    await user.paste('Sl\u0007eep');
    await user.click(screen.getByRole('button', { name: 'Add the category' }));
    await user.click(screen.getByLabelText('New message in Calm'));
    await user.paste('I rest \u202ewell.');
    await user.click(screen.getByRole('button', { name: 'Add the message to Calm' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      CONTROL_CHARACTER_REFUSED,
      DIRECTION_CONTROL_REFUSED,
    ]);
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('keeps the name typed when the server refuses it, and says why', async () => {
    const user = userEvent.setup();
    categoriesServer([{ id: 1, name: 'Calm', position: 0, messages: [] }]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByRole('button', { name: 'Edit name of Calm' });

    await user.type(screen.getByLabelText('New category name'), 'Calm');
    await user.click(screen.getByRole('button', { name: 'Add the category' }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('A category with this name already exists.'));
    expect(screen.getByLabelText('New category name')).toHaveValue('Calm');
  });

  it('counts a category name and a message near their limits, and sends none over them', async () => {
    const user = userEvent.setup();
    const { calls } = categoriesServer([{ id: 1, name: 'Calm', position: 0, messages: [] }]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByRole('button', { name: 'Edit name of Calm' });

    await user.click(screen.getByLabelText('New category name'));
    await user.paste('n'.repeat(CATEGORY_NAME_MAX + 1));
    expect(screen.getByText(`${CATEGORY_NAME_MAX + 1} / ${CATEGORY_NAME_MAX}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add the category' }));
    await user.click(screen.getByLabelText('New message in Calm'));
    await user.paste('m'.repeat(MESSAGE_TEXT_MAX + 1));
    expect(screen.getByText(`${MESSAGE_TEXT_MAX + 1} / ${MESSAGE_TEXT_MAX}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add the message to Calm' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      `Ensure this field has no more than ${CATEGORY_NAME_MAX} characters.`,
      `Ensure this field has no more than ${MESSAGE_TEXT_MAX} characters.`,
    ]);
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it(`shows a long category's first ${CATEGORY_ROWS_SHOWN} messages, and the others when asked`, async () => {
    const user = userEvent.setup();
    const texts = Array.from({ length: CATEGORY_ROWS_SHOWN + 2 }, (_, i) => `Message ${i + 1}.`);
    categoriesServer([{ id: 1, name: 'Long', position: 0, messages: messages(...texts) }]);
    renderWithProviders(<MessagesPanel />);
    const row = async (text: string) => (await screen.findByText(text)).closest('li')!;
    expect(await row(`Message ${CATEGORY_ROWS_SHOWN}.`)).not.toHaveAttribute('hidden');
    expect(await row(`Message ${CATEGORY_ROWS_SHOWN + 1}.`)).toHaveAttribute('hidden', 'until-found');

    await user.click(screen.getByRole('button', { name: 'Show the other 2 messages' }));
    expect(await row(`Message ${CATEGORY_ROWS_SHOWN + 2}.`)).not.toHaveAttribute('hidden');
    expect(
      within(await row(`Message ${CATEGORY_ROWS_SHOWN + 1}.`)).getByRole('button', {
        name: `Edit message "Message ${CATEGORY_ROWS_SHOWN + 1}."`,
      }),
    ).toHaveFocus();
  });

  const messages = (...texts: string[]) => texts.map((message_text, i) => ({ id: i + 1, message_text, position: i }));
  const jsonFile = (name: string, content: unknown) =>
    new File([JSON.stringify(content)], name, { type: 'application/json' });

  it('shows what an import will change, and writes nothing until staff confirm it', async () => {
    const user = userEvent.setup();
    const { calls } = categoriesServer([
      { id: 1, name: 'Calm', position: 0, messages: messages('I am calm.', 'I breathe.', 'I rest.') },
      { id: 2, name: 'Sleep', position: 1, messages: messages('I sleep well.') },
    ]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByRole('button', { name: 'Edit name of Calm' });

    const file = {
      categories: [
        { name: 'Calm', messages: ['I am calm.'] },
        { name: 'Sleep', messages: ['I sleep well.'] },
        { name: 'Gratitude', messages: ['I am thankful.', 'I notice what is good.'] },
      ],
    };
    await user.upload(screen.getByLabelText('Import messages file'), jsonFile('library.json', file));
    const dialog = await screen.findByRole('dialog', { name: 'Import library.json?' });
    expect(dialog).toHaveTextContent(
      '1 category added, 2 categories replaced. Categories the file does not name stay as they are.',
    );
    expect(dialog).toHaveTextContent('Messages in the replaced categories: 4 → 2.');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('"Calm" loses 2 messages');
    const rows = within(within(dialog).getByRole('list', { name: 'Categories in the file' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Calm3 messages → 1',
      'Sleep1 message, unchanged',
      'Gratitudenew · 2 messages',
    ]);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await user.upload(screen.getByLabelText('Import messages file'), jsonFile('library.json', file));
    await user.click(await screen.findByRole('button', { name: 'Replace and import' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([file]);
    expect(toast.success).toHaveBeenCalledWith('Imported 4 messages: 1 categories created, 2 replaced.');
  });

  it('imports a file that loses no messages with a plain Import, and names the category of a bad file', async () => {
    const user = userEvent.setup();
    const { calls } = categoriesServer([{ id: 1, name: 'Calm', position: 0, messages: messages('I am calm.') }]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByRole('button', { name: 'Edit name of Calm' });

    const bad = {
      categories: [
        { name: 'Calm', messages: ['I am calm.'] },
        { name: 'Focus', messages: [] },
      ],
    };
    await user.upload(screen.getByLabelText('Import messages file'), jsonFile('bad.json', bad));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        '\u2068bad.json\u2069 is not a messages file: Category 2 ("\u2068Focus\u2069"), messages: A category needs at least one message.',
      ),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const grown = { categories: [{ name: 'Calm', messages: ['I am calm.', 'I breathe.'] }] };
    await user.upload(screen.getByLabelText('Import messages file'), jsonFile('grown.json', grown));
    const dialog = await screen.findByRole('dialog', { name: 'Import grown.json?' });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    await vi.waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
  });

  it('keeps the keyboard on Import while it runs, Cancel and Escape closing nothing, on Import after a refusal, and gives it back to "Import JSON" once imported', async () => {
    const user = userEvent.setup();
    const answers: Array<(response: Response) => void> = [];
    const { calls } = fakeApi({
      [`GET ${ADMIN_API.categories}`]: () => [],
      [`POST ${ADMIN_API.categoriesImport}`]: () => new Promise<Response>((resolve) => answers.push(resolve)),
    });
    renderWithProviders(<MessagesPanel />);
    await screen.findByText('No message categories yet. Create one above or import a file.');
    // "Import JSON" opens the browser's file chooser; the keyboard stays on it while a file is picked.
    screen.getByRole('button', { name: 'Import JSON' }).focus();
    fireEvent.change(screen.getByLabelText('Import messages file'), {
      target: { files: [jsonFile('new.json', { categories: [{ name: 'Calm', messages: ['I am calm.'] }] })] },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Import new.json?' });
    const confirm = within(dialog).getByRole('button', { name: 'Import' });
    confirm.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(confirm).toHaveTextContent('Importing…'));
    expect(confirm).toHaveAttribute('aria-disabled', 'true');
    expect(confirm).toHaveFocus();
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    await user.click(cancel);
    expect(dialog).toBeInTheDocument();
    expect(calls.filter(({ method }) => method === 'POST')).toHaveLength(1);
    confirm.focus();

    // Refused: the dialog stays, Import available again with the keyboard on it.
    answers[0]!(jsonResponse(400, { detail: 'The library is being changed.' }));
    await vi.waitFor(() => expect(confirm).not.toHaveAttribute('aria-disabled', 'true'));
    expect(confirm).toHaveTextContent('Import');
    expect(confirm).toHaveFocus();

    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!(jsonResponse(200, { categories_created: 1, categories_updated: 0, messages: 1 }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Import JSON' })).toHaveFocus());
  });

  it("words a file's refusal as the server does, never in the validation library's words", async () => {
    const user = userEvent.setup();
    const { calls } = categoriesServer([]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByText('No message categories yet. Create one above or import a file.');

    const refused: Array<[unknown, string]> = [
      [
        { categories: Array.from({ length: 501 }, (_, i) => ({ name: `C${i}`, messages: ['m'] })) },
        'categories: Ensure this field has no more than 500 elements.',
      ],
      [{ categories: 'all' }, 'categories: Expected a list of items but got type "str".'],
      [{}, 'categories: This field is required.'],
      [[], 'Invalid data. Expected a dictionary, but got list.'],
      [
        { categories: [{ name: 'Calm', messages: 'I am calm.' }] },
        'Category 1 ("\u2068Calm\u2069"), messages: Expected a list of items but got type "str".',
      ],
      [{ categories: [{ name: 7, messages: ['a'] }] }, 'Category 1, name: Not a valid string.'],
      [
        { categories: [{ name: 'Calm', messages: ['a', 'I am \u0000 calm.', 3] }] },
        'Category 1 ("\u2068Calm\u2069"), message 2: Null characters are not allowed. (1 more problem)',
      ],
    ];
    for (const [content, problem] of refused) {
      vi.mocked(toast.error).mockClear();
      await user.upload(screen.getByLabelText('Import messages file'), jsonFile('file.json', content));
      await vi.waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith(`\u2068file.json\u2069 is not a messages file: ${problem}`),
      );
    }
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('refuses a file larger than an import takes without reading it', async () => {
    const user = userEvent.setup();
    const { calls } = categoriesServer([]);
    renderWithProviders(<MessagesPanel />);
    await screen.findByText('No message categories yet. Create one above or import a file.');
    const huge = jsonFile('huge.json', { categories: [] });
    Object.defineProperty(huge, 'size', { value: 24 * 1024 * 1024 + 1 });
    const read = vi.spyOn(huge, 'text');
    await user.upload(screen.getByLabelText('Import messages file'), huge);
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        '\u2068huge.json\u2069 is larger than 24\u00a0MB, the most an import takes.',
      ),
    );
    expect(read).not.toHaveBeenCalled();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
});
