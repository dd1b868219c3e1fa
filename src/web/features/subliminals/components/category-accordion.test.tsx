import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MessageCategory } from '@shared/contract';
import { renderWithProviders } from '@web/test/render';
import { CategoryAccordion } from './category-accordion';

const CATEGORIES: MessageCategory[] = [
  { id: 1, name: 'Calm', messages: [{ id: 11, message_text: 'I breathe slowly.' }] },
  { id: 2, name: 'Focus', messages: [{ id: 21, message_text: 'One thing at a time.' }] },
];

describe('CategoryAccordion', () => {
  it('lists each category as a heading named by its trigger alone, its Add button beside the heading', async () => {
    const onAdd = vi.fn();
    renderWithProviders(<CategoryAccordion categories={CATEGORIES} isAdded={() => false} onAdd={onAdd} />);
    const headings = screen.getAllByRole('heading', { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual(['Calm1 messages', 'Focus1 messages']);
    // What a screen reader's list of headings says: the category and its count, no button's name in it.
    expect(screen.getByRole('heading', { level: 3, name: /^Calm\s*1 messages$/ })).toContainElement(
      screen.getByRole('button', { name: /^Calm\s*1 messages$/ }),
    );
    const add = screen.getByRole('button', { name: 'Add Calm to playlist' });
    expect(headings[0]).not.toContainElement(add);
    await userEvent.setup().click(add);
    expect(onAdd).toHaveBeenCalledWith(CATEGORIES[0]);
  });
});
