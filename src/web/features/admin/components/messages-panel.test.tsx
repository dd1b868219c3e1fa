import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminCategory } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { MessagesPanel } from './messages-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

function categoriesServer(categories: AdminCategory[]) {
  return fakeApi({
    [`GET ${ADMIN_API.categories}`]: () => categories,
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

describe('MessagesPanel', () => {
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
    expect(toast.success).toHaveBeenCalledWith('Created Calm.');
    expect(screen.getByLabelText('New category name')).toHaveValue('');
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
});
