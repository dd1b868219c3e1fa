import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ShowFoldedRows, useFold, useFoldedRows } from './folded-rows';

function Row({ text, folded }: { text: string; folded: boolean }) {
  return (
    <li ref={useFold(folded)} data-row={text}>
      {text} <button type="button">Edit {text}</button>
    </li>
  );
}

/** A list of `count` rows showing the first `shown`. */
function List({ count, shown }: { count: number; shown: number }) {
  const fold = useFoldedRows(count, shown);
  return (
    <>
      <ul {...fold.list}>
        {Array.from({ length: count }, (_, i) => (
          <Row key={i} text={`row ${i + 1}`} folded={fold.isFolded(i)} />
        ))}
      </ul>
      <ShowFoldedRows folded={fold.folded} what={{ one: 'row', other: 'rows' }} onShow={fold.unfold} />
    </>
  );
}

const row = (n: number) => document.querySelector(`[data-row="row ${n}"]`)!;

describe('folded rows', () => {
  it('shows a short list whole, with nothing to unfold', () => {
    render(<List count={3} shown={3} />);
    for (const n of [1, 2, 3]) expect(row(n)).not.toHaveAttribute('hidden');
    expect(screen.queryByRole('button', { name: /^Show the other/ })).toBeNull();
  });

  it('folds the rows past the first ones, in the page for find but hidden until found, and out of reach', () => {
    render(<List count={5} shown={2} />);
    expect(row(2)).not.toHaveAttribute('hidden');
    for (const n of [3, 4, 5]) {
      expect(row(n)).toHaveAttribute('hidden', 'until-found');
      // Chromium would list the element itself, empty, to a screen reader.
      expect(row(n)).toHaveAttribute('aria-hidden', 'true');
    }
    expect(row(5)).toHaveTextContent('row 5');
  });

  it('unfolds on "Show the other …", focus going to the first row that was folded', async () => {
    const user = userEvent.setup();
    render(<List count={5} shown={2} />);
    await user.click(screen.getByRole('button', { name: 'Show the other 3 rows' }));
    expect(row(3)).not.toHaveAttribute('hidden');
    expect(row(5)).not.toHaveAttribute('aria-hidden');
    expect(screen.getByRole('button', { name: 'Edit row 3' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: /^Show the other/ })).toBeNull();
  });

  it('names one folded row alone', async () => {
    const user = userEvent.setup();
    render(<List count={3} shown={2} />);
    await user.click(screen.getByRole('button', { name: 'Show the other row' }));
    expect(screen.getByRole('button', { name: 'Edit row 3' })).toHaveFocus();
  });

  it('unfolds when the browser finds text in a folded row', () => {
    render(<List count={5} shown={2} />);
    // As the browser does: it shows the row it found, then tells.
    act(() => {
      row(4).removeAttribute('hidden');
      row(4).dispatchEvent(new Event('beforematch', { bubbles: true }));
    });
    for (const n of [3, 4, 5]) expect(row(n)).not.toHaveAttribute('hidden');
    expect(row(4)).not.toHaveAttribute('aria-hidden');
    expect(screen.queryByRole('button', { name: /^Show the other/ })).toBeNull();
  });
});
