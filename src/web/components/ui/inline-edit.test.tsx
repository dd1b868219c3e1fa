import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTROL_CHARACTER_REFUSED, DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import { sessionStore } from '@web/lib/session';
import { AddForm } from './add-form';
import { DRAFT_BACK } from './draft-back';
import { changedMeanwhile, InlineEdit } from './inline-edit';

/** A server that took another tab's edit first: the list is read again before the refusal arrives. */
function RefusedAsChanged({ draft }: { draft?: string }) {
  const [value, setValue] = useState('I am calm.');
  return (
    <InlineEdit
      value={value}
      label="message"
      draft={draft}
      onSave={async () => {
        setValue('I am peaceful.');
        throw new Error('409');
      }}
    />
  );
}

describe('InlineEdit', () => {
  it('refuses a required text left empty or invisible, says so, and keeps the form open', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    render(<InlineEdit value="Morning" label="name of Morning" onSave={onSave} />);

    await user.click(screen.getByRole('button', { name: 'Edit name of Morning' }));
    const field = screen.getByRole('textbox', { name: 'name of Morning' });
    await user.clear(field);
    await user.type(field, '\u200b {Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('This field may not be blank.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();

    // Typing again clears the error; the corrected name is saved trimmed.
    await user.type(field, 'Evening ');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('\u200b Evening', 'Morning');
  });

  it('says at the field, without sending, that a typed text holds a direction control inside (decision 063)', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    render(<InlineEdit typed value="Morning" label="name of Morning" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit name of Morning' }));
    const field = screen.getByRole('textbox', { name: 'name of Morning' });
    await user.type(field, ' \u202etxt.exe');
    expect(screen.getByRole('alert')).toHaveTextContent(DIRECTION_CONTROL_REFUSED);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.keyboard('{Enter}');
    expect(onSave).not.toHaveBeenCalled();
    expect(field).toHaveFocus();

    // At an end it is dropped, as the server drops it: nothing to say.
    await user.clear(field);
    await user.type(field, 'Evening\u202c');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('Evening\u202c', 'Morning');
  });

  it('edits a one-line text in a field that wraps it: Enter saves, a line break pasted is a space', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    render(<InlineEdit value="I am calm." label="message" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    const field = screen.getByRole('textbox', { name: 'message' });
    // Multi-line only as it wraps: a screen reader hears a one-line field, whose Enter does not break the line.
    expect(field).toBeInstanceOf(HTMLTextAreaElement);
    expect(field).toHaveAttribute('aria-multiline', 'false');
    await user.paste('\nI breathe.\r\nI rest.');
    expect(field).toHaveValue('I am calm. I breathe. I rest.');
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(onSave).toHaveBeenCalledWith('I am calm. I breathe. I rest.', 'I am calm.');
  });

  it('says nothing of direction controls in a text the server does not read as typed (staff’s)', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    render(<InlineEdit value="Morning" label="name of Morning" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit name of Morning' }));
    await user.type(screen.getByRole('textbox', { name: 'name of Morning' }), ' \u202eb{Enter}');
    expect(onSave).toHaveBeenCalledWith('Morning \u202eb', 'Morning');
  });

  it('saves an optional text cleared, and shows its placeholder while it is empty', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    const { rerender } = render(
      <InlineEdit value="Rain" label="description" required={false} placeholder="No description" onSave={onSave} />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit description' }));
    await user.clear(screen.getByRole('textbox', { name: 'description' }));
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('', 'Rain');

    rerender(<InlineEdit value="" label="description" required={false} placeholder="No description" onSave={onSave} />);
    expect(screen.getByText('No description')).toBeInTheDocument();
  });

  it('says so when the text changes elsewhere while it is edited here, keeps what was typed, and saves over the newer text', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    const { rerender } = render(<InlineEdit value="I am calm." label="message" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    const field = screen.getByRole('textbox', { name: 'message' });
    await user.clear(field);
    await user.type(field, 'I am strong.');

    // The list read again: another tab saved meanwhile.
    rerender(<InlineEdit value="I am peaceful." label="message" onSave={onSave} />);
    expect(screen.getByRole('alert')).toHaveTextContent(changedMeanwhile('I am peaceful.'));
    expect(field).toHaveValue('I am strong.');
    expect(field).toHaveAccessibleDescription(changedMeanwhile('I am peaceful.'));

    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('I am strong.', 'I am peaceful.');
  });

  it('keeps the draft of a save refused as changed meanwhile, and says what the text reads now', async () => {
    const user = userEvent.setup();
    render(<RefusedAsChanged />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    const field = screen.getByRole('textbox', { name: 'message' });
    await user.clear(field);
    await user.type(field, 'I am strong.{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(changedMeanwhile('I am peaceful.'));
    expect(field).toHaveValue('I am strong.');
    expect(field).toHaveFocus();
  });

  it('cancels on Escape from its buttons too, and gives the keyboard back to the edit button, saved or cancelled', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    render(<InlineEdit value="Morning" label="name of Morning" onSave={onSave} />);
    const edit = screen.getByRole('button', { name: 'Edit name of Morning' });

    await user.click(edit);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit name of Morning' })).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Edit name of Morning' })).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.type(screen.getByRole('textbox'), ' light{Enter}');
    expect(onSave).toHaveBeenCalledWith('Morning light', 'Morning');
    expect(await screen.findByRole('button', { name: 'Edit name of Morning' })).toHaveFocus();
  });

  it('keeps the keyboard on ✓ while the save runs, ✓ and × doing nothing meanwhile, and on the edit button once saved', async () => {
    const user = userEvent.setup();
    let saved!: () => void;
    const onSave = vi.fn(() => new Promise<void>((resolve) => (saved = resolve)));
    const onCancel = vi.fn();
    render(<InlineEdit value="Morning" label="name of Morning" onSave={onSave} onCancel={onCancel} />);
    await user.click(screen.getByRole('button', { name: 'Edit name of Morning' }));
    await user.type(screen.getByRole('textbox'), ' light');
    await user.tab();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(save).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.tab();
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    expect(cancel).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();

    saved();
    expect(await screen.findByRole('button', { name: 'Edit name of Morning' })).toHaveFocus();
  });

  it('has the keyboard on the edit button the moment a save closes the form, before the page has settled', async () => {
    const user = userEvent.setup();
    let saved!: () => void;
    render(
      <InlineEdit
        value="Morning"
        label="name of Morning"
        onSave={() => new Promise<void>((resolve) => (saved = resolve))}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit name of Morning' }));
    await user.type(screen.getByRole('textbox'), ' light{Enter}');
    // Where the keyboard is when the form gives way to the edit button, before React has run that render's effects:
    // a key pressed then goes there.
    let focusedWhenDrawn: Element | null | undefined;
    const onDrawn = new MutationObserver(() => {
      if (!screen.queryByRole('button', { name: 'Edit name of Morning' })) return;
      onDrawn.disconnect();
      focusedWhenDrawn = document.activeElement;
    });
    onDrawn.observe(document.body, { childList: true, subtree: true });
    saved();
    await waitFor(() => expect(focusedWhenDrawn).toBeDefined());
    expect(focusedWhenDrawn).toBe(screen.getByRole('button', { name: 'Edit name of Morning' }));
  });
});

describe('AddForm', () => {
  it('says at the field, without sending, that a pasted text holds a control character inside', async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn(() => Promise.resolve());
    render(<AddForm typed label="New message" action="Add the message" placeholder="A message" onAdd={onAdd} />);
    const field = screen.getByRole('textbox', { name: 'New message' });
    await user.click(field);
    await user.paste('I am\u0007 calm');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(CONTROL_CHARACTER_REFUSED);
    expect(onAdd).not.toHaveBeenCalled();
  });

  it('says at the field, without sending, that a typed text holds a direction control inside (decision 063)', async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn(() => Promise.resolve());
    render(<AddForm typed label="New message" action="Add the message" placeholder="A message" onAdd={onAdd} />);
    const field = screen.getByRole('textbox', { name: 'New message' });
    await user.type(field, 'I am \u2067calm{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(DIRECTION_CONTROL_REFUSED);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(DIRECTION_CONTROL_REFUSED);
    expect(onAdd).not.toHaveBeenCalled();
    expect(field).toHaveValue('I am \u2067calm');

    await user.clear(field);
    await user.type(field, 'I am calm{Enter}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onAdd).toHaveBeenCalledWith('I am calm');
  });

  it('keeps the keyboard on Add while it is sent, a second press sending nothing, then hands it back to the field', async () => {
    const user = userEvent.setup();
    let added!: () => void;
    const onAdd = vi.fn(() => new Promise<void>((resolve) => (added = resolve)));
    render(<AddForm label="New message" action="Add the message" placeholder="A message" onAdd={onAdd} />);
    const field = screen.getByRole('textbox', { name: 'New message' });
    await user.type(field, 'I am calm');
    await user.tab();
    const add = screen.getByRole('button', { name: 'Add the message' });
    expect(add).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(add).toHaveAttribute('aria-disabled', 'true');
    expect(add).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onAdd).toHaveBeenCalledTimes(1);

    // Added: the field is empty, Add unavailable until something is typed, and the keyboard back in the field.
    added();
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveValue('');
    expect(add).toBeDisabled();
  });
});

describe('a draft kept (lib/form-draft.ts)', () => {
  const jwtWith = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.s`;
  const signIn = (id: number) =>
    sessionStore.setTokens({ access: jwtWith({ user_id: id }), refresh: `r${id}` }, `${id}@example.com`);
  /** The session ends (a refresh refused): what the form holds is no one's to keep from then on. */
  const sessionEnds = () => sessionStore.clear();

  afterEach(() => {
    sessionStore.clear();
    sessionStorage.clear();
  });

  it('gives an edit typed before the session ended back to its person, open, and to no one else', async () => {
    signIn(5);
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    const first = render(<InlineEdit value="I am calm." label="message" draft="m.1" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    await user.type(screen.getByRole('textbox', { name: 'message' }), ' Always');
    sessionEnds();
    first.unmount();

    signIn(6);
    const other = render(<InlineEdit value="I am calm." label="message" draft="m.1" onSave={onSave} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    other.unmount();

    signIn(5);
    render(<InlineEdit value="I am calm." label="message" draft="m.1" onSave={onSave} />);
    const field = screen.getByRole('textbox', { name: 'message' });
    expect(field).toHaveValue('I am calm. Always');
    expect(field).toHaveAccessibleDescription(DRAFT_BACK);
    // Given back as the page loads: the keyboard stays where the page puts it.
    expect(field).not.toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('I am calm. Always', 'I am calm.');
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('says, when the text reads otherwise by the time it is given back, what it reads now; Cancel drops the draft', async () => {
    signIn(5);
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    const first = render(<InlineEdit value="I am calm." label="message" draft="m.1" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    await user.type(screen.getByRole('textbox', { name: 'message' }), ' Always');
    first.unmount();

    const second = render(<InlineEdit value="I am still." label="message" draft="m.1" onSave={onSave} />);
    expect(screen.getByRole('textbox', { name: 'message' })).toHaveValue('I am calm. Always');
    expect(screen.getByRole('alert')).toHaveTextContent(changedMeanwhile('I am still.'));
    // Save puts it in the place of the newer text, knowingly (decision 062).
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('I am calm. Always', 'I am still.');
    second.unmount();

    render(<InlineEdit value="I am still." label="message" draft="m.1" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    await user.type(screen.getByRole('textbox', { name: 'message' }), ' Now');
    expect(sessionStorage.length).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(sessionStorage.length).toBe(0);
  });

  // docs/decisions/096-a-refused-save-keeps-its-draft-and-a-refused-record-stops.md
  it('says again, given back after a save refused as changed meanwhile, what the text reads now', async () => {
    signIn(5);
    const user = userEvent.setup();
    const first = render(<RefusedAsChanged draft="m.1" />);
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    await user.clear(screen.getByRole('textbox', { name: 'message' }));
    await user.type(screen.getByRole('textbox', { name: 'message' }), 'I am strong.{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(changedMeanwhile('I am peaceful.'));
    // Reloaded with nothing typed since: the list reads their text.
    first.unmount();
    const onSave = vi.fn(() => Promise.resolve());
    const second = render(<InlineEdit value="I am peaceful." label="message" draft="m.1" onSave={onSave} />);
    expect(screen.getByRole('textbox', { name: 'message' })).toHaveValue('I am strong.');
    expect(screen.getByRole('alert')).toHaveTextContent(changedMeanwhile('I am peaceful.'));
    // Typed on and reloaded again: still said.
    await user.type(screen.getByRole('textbox', { name: 'message' }), ' Always.');
    second.unmount();
    render(<InlineEdit value="I am peaceful." label="message" draft="m.1" onSave={onSave} />);
    expect(screen.getByRole('alert')).toHaveTextContent(changedMeanwhile('I am peaceful.'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('I am strong. Always.', 'I am peaceful.');
    expect(sessionStorage.length).toBe(0);
  });

  it('gives a text being added back to its person, and drops it once added', async () => {
    signIn(5);
    const user = userEvent.setup();
    const onAdd = vi.fn(() => Promise.resolve());
    const first = render(
      <AddForm label="New message" action="Add it" placeholder="I am…" draft="new.1" onAdd={onAdd} />,
    );
    await user.type(screen.getByRole('textbox', { name: 'New message' }), 'I am brave');
    sessionEnds();
    first.unmount();

    signIn(6);
    const other = render(
      <AddForm label="New message" action="Add it" placeholder="I am…" draft="new.1" onAdd={onAdd} />,
    );
    expect(screen.getByRole('textbox', { name: 'New message' })).toHaveValue('');
    other.unmount();

    signIn(5);
    render(<AddForm label="New message" action="Add it" placeholder="I am…" draft="new.1" onAdd={onAdd} />);
    const field = screen.getByRole('textbox', { name: 'New message' });
    expect(field).toHaveValue('I am brave');
    expect(field).toHaveAccessibleDescription(DRAFT_BACK);
    await user.click(screen.getByRole('button', { name: 'Add it' }));
    expect(onAdd).toHaveBeenCalledWith('I am brave');
    expect(field).toHaveValue('');
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });
});
