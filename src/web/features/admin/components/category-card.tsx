import { useEffect, useRef } from 'react';
import { clsx } from 'clsx';
import type { AdminCategory } from '@shared/contract';
import { CATEGORY_NAME_MAX, MESSAGE_TEXT_MAX } from '@shared/contract/admin';
import { MoveButtons, moved } from '@web/components/ui/move-buttons';
import * as api from '../api/categories';
import { refusedAsChangedMeanwhile, type Change } from '@web/lib/change';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { InlineEdit } from '@web/components/ui/inline-edit';
import { AddForm } from '@web/components/ui/add-form';
import { isolated } from '@shared/contract/plain';
import {
  CATEGORY_ROWS_SHOWN,
  MESSAGE_ROWS,
  ShowFoldedRows,
  useFold,
  useFoldedRows,
} from '@web/components/ui/folded-rows';

type AdminMessage = AdminCategory['messages'][number];

/**
 * A row of a text and its four buttons (edit, up, down, delete): beside each other from `sm` up; on a phone the
 * buttons go on a line of their own under the text, which would otherwise have a narrow column beside them.
 */
// On a touch phone the pencil stands 4 px from the arrows, where each 40 px icon answers 2 px round it (decision 123).
const ROW_WITH_BUTTONS =
  'flex flex-wrap items-center justify-end max-sm:pointer-coarse:gap-x-1 sm:flex-nowrap sm:justify-between sm:gap-2 has-[form]:flex-wrap';

function MessageRow({
  message,
  index,
  count,
  folded,
  run,
  onMove,
  keyboardWhenNoneLeft,
}: {
  message: AdminMessage;
  /** Its place in its category of `count` messages. */
  index: number;
  count: number;
  folded: boolean;
  run: Change;
  onMove(index: number, delta: number): void;
  /** Where the keyboard goes from Delete once this was the category's last message. */
  keyboardWhenNoneLeft(): HTMLElement | null;
}) {
  const foldRef = useFold(folded);
  return (
    <li ref={foldRef} className={clsx(ROW_WITH_BUTTONS, 'border-t border-line py-1 first:border-t-0')}>
      <InlineEdit
        value={message.message_text}
        // Each row's buttons named by its text, as one's own messages' are: a list of buttons read aloud tells them apart.
        label={`message "${message.message_text}"`}
        typed
        buttonUnderOnPhone
        className="min-w-0 break-words"
        max={MESSAGE_TEXT_MAX}
        onSave={(text, from) =>
          run(() => api.editMessage(message.id, text, from), 'Message saved.', {
            saidInPlace: refusedAsChangedMeanwhile,
            key: `edit ${message.id}`,
          })
        }
      />
      {/* Apart on a touch screen, where each 40 px icon answers 2 px round it (decision 123). */}
      <div className="flex shrink-0 items-center pointer-coarse:gap-1">
        <MoveButtons
          index={index}
          count={count}
          label={`"${message.message_text}"`}
          onMove={(delta) => onMove(index, delta)}
        />
        <ConfirmDelete
          label={`Delete the message "${message.message_text}"`}
          title="Delete this message?"
          description={
            <>
              “<bdi>{message.message_text}</bdi>”
            </>
          }
          onConfirm={() =>
            run(() => api.deleteMessage(message.id), 'Message deleted.', { key: `delete message ${message.id}` })
          }
          keyboardWhenNoneLeft={keyboardWhenNoneLeft}
        />
      </div>
    </li>
  );
}

export function CategoryCard({
  category,
  index,
  categoryIds,
  justCreated = false,
  run,
  keyboardWhenNoneLeft,
}: {
  category: AdminCategory;
  index: number;
  categoryIds: number[];
  /**
   * Created a moment ago from the field above the list: shown, and the keyboard on its new message's field, its next
   * step (docs/decisions/101-a-staff-members-day-walked.md).
   */
  justCreated?: boolean;
  run: Change;
  /** Where the keyboard goes from the category's Delete once it was the last category (the field that adds one). */
  keyboardWhenNoneLeft(): HTMLElement | null;
}) {
  const card = useRef<HTMLLIElement>(null);
  const addMessage = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!justCreated) return;
    addMessage.current?.querySelector('input')?.focus({ preventScroll: true });
    card.current?.scrollIntoView({ block: 'center' });
  }, [justCreated]);
  const ids = category.messages.map((m) => m.id);
  // A long category shows its first messages, as one's own do (docs/decisions/060-a-long-list-shows-its-first-rows.md).
  const fold = useFoldedRows(ids.length, CATEGORY_ROWS_SHOWN);
  const move = (index: number, delta: number) => {
    // A message moved among the folded ones is shown there, and keeps the focus of its button.
    fold.unfoldAt(index + delta);
    void run(() => api.reorderMessages(category.id, moved(ids, index, delta)), undefined, {
      key: `order in ${category.id}`,
    }).catch(() => undefined);
  };
  const newMessageField = () => addMessage.current?.querySelector('input') ?? null;
  return (
    <li ref={card} className="rounded-2xl border border-line p-4">
      <div className={ROW_WITH_BUTTONS}>
        <InlineEdit
          value={category.name}
          label={`name of ${category.name}`}
          typed
          buttonUnderOnPhone
          className="text-lg font-semibold"
          max={CATEGORY_NAME_MAX}
          onSave={(name, from) =>
            run(() => api.renameCategory(category.id, name, from), `Renamed to ${isolated(name)}.`, {
              saidInPlace: refusedAsChangedMeanwhile,
              key: `rename ${category.id}`,
            })
          }
        />
        <div className="flex shrink-0 items-center pointer-coarse:gap-1">
          <MoveButtons
            index={index}
            count={categoryIds.length}
            label={category.name}
            onMove={(delta) =>
              void run(() => api.reorderCategories(moved(categoryIds, index, delta)), undefined, {
                key: 'order of categories',
              }).catch(() => undefined)
            }
          />
          <ConfirmDelete
            label={`Delete ${category.name}`}
            title={
              <>
                Delete "<bdi>{category.name}</bdi>"?
              </>
            }
            description={`${category.messages.length ? `Its ${category.messages.length} message${category.messages.length === 1 ? '' : 's'} will be deleted too. ` : ''}This cannot be undone.`}
            onConfirm={() =>
              run(() => api.deleteCategory(category.id), `Deleted ${isolated(category.name)}.`, {
                key: `delete ${category.id}`,
              })
            }
            keyboardWhenNoneLeft={keyboardWhenNoneLeft}
          />
        </div>
      </div>
      {category.messages.length === 0 ? (
        <p className="mt-2 text-sm text-fg-muted">No messages in this category yet.</p>
      ) : null}
      <ol {...fold.list} className="mt-2 flex flex-col">
        {category.messages.map((message, i) => (
          <MessageRow
            key={message.id}
            message={message}
            index={i}
            count={ids.length}
            folded={fold.isFolded(i)}
            run={run}
            onMove={move}
            // Its last message gone, the keyboard goes to the field that adds the next
            // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
            keyboardWhenNoneLeft={newMessageField}
          />
        ))}
      </ol>
      <ShowFoldedRows folded={fold.folded} what={MESSAGE_ROWS} onShow={fold.unfold} />
      <div ref={addMessage} className="mt-3">
        <AddForm
          label={`New message in ${category.name}`}
          action={`Add the message to ${category.name}`}
          placeholder="New message"
          typed
          max={MESSAGE_TEXT_MAX}
          onAdd={async (text) => {
            await run(() => api.addMessage(category.id, text), 'Message added.', { key: `add to ${category.id}` });
            // It comes last: shown, not folded away under the others.
            fold.unfold();
          }}
        />
      </div>
    </li>
  );
}
