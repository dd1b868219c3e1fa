import type { AdminCategory } from '@shared/contract';
import { MoveButtons, moved } from '@web/components/ui/move-buttons';
import * as api from '../api/categories';
import type { Change } from '@web/lib/change';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { InlineEdit } from '@web/components/ui/inline-edit';
import { AddForm } from '@web/components/ui/add-form';

export function CategoryCard({
  category,
  index,
  categoryIds,
  run,
}: {
  category: AdminCategory;
  index: number;
  categoryIds: number[];
  run: Change;
}) {
  const ids = category.messages.map((m) => m.id);
  return (
    <li className="rounded-2xl border border-line p-4">
      <div className="flex items-center justify-between gap-2 has-[form]:flex-wrap">
        <InlineEdit
          value={category.name}
          label={`name of ${category.name}`}
          className="truncate text-lg font-semibold"
          onSave={(name) => run(() => api.renameCategory(category.id, name), `Renamed to ${name}.`)}
        />
        <div className="flex shrink-0 items-center">
          <MoveButtons
            index={index}
            count={categoryIds.length}
            label={category.name}
            onMove={(delta) =>
              void run(() => api.reorderCategories(moved(categoryIds, index, delta))).catch(() => undefined)
            }
          />
          <ConfirmDelete
            label={`Delete ${category.name}`}
            title={`Delete "${category.name}"?`}
            description={`${category.messages.length ? `Its ${category.messages.length} message${category.messages.length === 1 ? '' : 's'} will be deleted too. ` : ''}This cannot be undone.`}
            onConfirm={() => run(() => api.deleteCategory(category.id), `Deleted ${category.name}.`)}
          />
        </div>
      </div>
      {category.messages.length === 0 ? (
        <p className="mt-2 text-sm text-fg-muted">No messages in this category yet.</p>
      ) : null}
      <ol className="mt-2 flex flex-col">
        {category.messages.map((message, i) => (
          <li
            key={message.id}
            className="flex items-center justify-between gap-2 border-t border-line py-1 first:border-t-0 has-[form]:flex-wrap"
          >
            <InlineEdit
              value={message.message_text}
              label="message"
              className="min-w-0 break-words"
              onSave={(text) => run(() => api.editMessage(message.id, text), 'Message saved.')}
            />
            <div className="flex shrink-0 items-center">
              <MoveButtons
                index={i}
                count={ids.length}
                label="message"
                onMove={(delta) =>
                  void run(() => api.reorderMessages(category.id, moved(ids, i, delta))).catch(() => undefined)
                }
              />
              <ConfirmDelete
                label="Delete message"
                title="Delete this message?"
                description={`“${message.message_text}”`}
                onConfirm={() => run(() => api.deleteMessage(message.id), 'Message deleted.')}
              />
            </div>
          </li>
        ))}
      </ol>
      <div className="mt-3">
        <AddForm
          label={`New message in ${category.name}`}
          action={`Add the message to ${category.name}`}
          placeholder="New message"
          onAdd={(text) => run(() => api.addMessage(category.id, text), 'Message added.')}
        />
      </div>
    </li>
  );
}
