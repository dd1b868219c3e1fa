import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { toast } from 'sonner';
import type { ExportFormat, MessageCategory, OwnCategory } from '@shared/contract';
import { EXPORT_FORMATS, OWN_CATEGORY_NAME_MAX, OWN_MESSAGE_TEXT_MAX } from '@shared/contract/portal-plain';
import { PlanLock } from '@web/components/plan-lock';
import { PlanReadFailed } from '@web/components/plan-read-failed';
import { AddForm } from '@web/components/ui/add-form';
import { Button } from '@web/components/ui/button';
import { ConfirmDelete, ConfirmDeleteDialog, DeleteButton } from '@web/components/ui/confirm-delete';
import {
  CATEGORY_ROWS_SHOWN,
  MESSAGE_ROWS,
  ShowFoldedRows,
  useFold,
  useFoldedRows,
} from '@web/components/ui/folded-rows';
import { InlineEdit } from '@web/components/ui/inline-edit';
import { keyboardToNeighbourOnceGone } from '@web/lib/keyboard-after-removal';
import { MoveButtons, moved } from '@web/components/ui/move-buttons';
import { QueryState } from '@web/components/ui/query-state';
import { AS_AN_UNDO, refusedAsChangedMeanwhile, toastFailure, type Change } from '@web/lib/change';
import { keptDraft } from '@web/lib/form-draft';
import { saveAsFile } from '@web/lib/download';
import { usePlan } from '@web/lib/plan';
import * as api from '../api/own-messages';
import { exportOwnMessages, ownCategoryShares } from '../api/saved-subliminals';
import type { PlaylistItem } from '../lib/player-storage';
import { AddToPlaylistButton } from './add-to-playlist-button';
import { ShareDialog } from './share-dialog';
import { isolated } from '@shared/contract/plain';

type OwnMessage = OwnCategory['messages'][number];

/** The names an edit of a message, and a message being added to a category, keep their drafts under (decision 068). */
const editDraft = (messageId: number) => `own-message.${messageId}`;
const addDraft = (categoryId: number) => `own-message.new.${categoryId}`;
/** The name of the field that adds a message to a category, where the keyboard goes once its last message is deleted. */
const newMessageLabel = (categoryName: string) => `New message in ${categoryName}`;

export const OWN_EMPTY =
  'You have no messages of your own yet. Create a category, then write the affirmations you want to see.';

/**
 * One message of one's own: edit, move, add to the playlist, delete (asked in the panel's one dialog). Rendered again
 * only when its own props change: its category's card is rendered again when the playlist takes or drops the whole
 * category, and a hundred rows with it took a phone a tenth of a second.
 */
const OwnMessageRow = memo(function OwnMessageRow({
  message,
  categoryId,
  index,
  count,
  folded,
  change,
  onMove,
  onAddMessage,
  onDelete,
}: {
  message: OwnMessage;
  categoryId: number;
  /** Its place in its category of `count` messages. */
  index: number;
  count: number;
  folded: boolean;
  change: Change;
  onMove(index: number, delta: number): void;
  onAddMessage(item: PlaylistItem): void;
  onDelete(message: OwnMessage, categoryId: number, control: HTMLElement): void;
}) {
  const foldRef = useFold(folded);
  return (
    <li
      ref={foldRef}
      // An edit open takes the row's width, its text wrapped there, the buttons going under it.
      className="flex items-center justify-between gap-2 py-1.5 has-[form]:flex-wrap @max-sm:flex-wrap [&>form]:basis-full"
    >
      <InlineEdit
        typed
        value={message.message_text}
        label={`message "${message.message_text}"`}
        className="text-sm"
        max={OWN_MESSAGE_TEXT_MAX}
        draft={editDraft(message.id)}
        onSave={(text, from) =>
          change(() => api.ownMessagesCalls.editMessage(message.id, text, from), 'Message saved.', {
            saidInPlace: refusedAsChangedMeanwhile,
            key: `edit ${message.id}`,
          })
        }
      />
      {/* Apart on a touch screen, where each 40 px icon answers 2 px round it (decision 123). */}
      <div className="ml-auto flex shrink-0 items-center pointer-coarse:gap-1">
        <MoveButtons
          index={index}
          count={count}
          label={`"${message.message_text}"`}
          onMove={(delta) => onMove(index, delta)}
        />
        <Button
          size="sm"
          variant="ghost"
          className="icon-plus"
          onClick={() => onAddMessage({ ...message, source: 'own' })}
          aria-label={`Add "${message.message_text}" to playlist`}
        />
        <DeleteButton
          label={`Delete the message "${message.message_text}"`}
          onClick={(event) => onDelete(message, categoryId, event.currentTarget)}
        />
      </div>
    </li>
  );
});

/**
 * One category of one's own with its messages; rendered again only when its own props change, so a change of the
 * playlist or the player's settings does not render every message of every category (bench/player.mjs).
 */
const OwnCategoryCard = memo(function OwnCategoryCard({
  category,
  index,
  categoryIds,
  change,
  shareable,
  added,
  onAdd,
  onAddMessage,
  onDeleteMessage,
  keyboardWhenNoneLeft,
}: {
  category: OwnCategory;
  /** Its place in the person's list, and the list's ids, to move it up or down. */
  index: number;
  categoryIds: readonly number[];
  change: Change;
  shareable: boolean;
  /** Whether all its messages are in the playlist already. */
  added: boolean;
  onAdd(category: MessageCategory): void;
  onAddMessage(item: PlaylistItem): void;
  /** Asks, in the panel's one dialog, whether to delete this message. */
  onDeleteMessage(message: OwnMessage, categoryId: number, control: HTMLElement): void;
  /** Where the keyboard goes from the category's Delete once it was the last category (the field that adds one). */
  keyboardWhenNoneLeft(): HTMLElement | null;
}) {
  const fold = useFoldedRows(category.messages.length, CATEGORY_ROWS_SHOWN);
  // An edit given back from its draft (a session that ended) is shown, not folded away with the rows it is among.
  const [draftFolded] = useState(() =>
    category.messages.some(
      (message, i) => i >= CATEGORY_ROWS_SHOWN && keptDraft(editDraft(message.id), () => true) !== null,
    ),
  );
  if (draftFolded) fold.unfoldInRender();
  // The same function while the category is the same, so its rows are not rendered again with the card (when the
  // playlist takes or drops the whole category).
  const { unfoldAt } = fold;
  const move = useCallback(
    (index: number, delta: number) => {
      // A message moved among the folded ones is shown there, and keeps the focus of its button.
      unfoldAt(index + delta);
      const ids = category.messages.map((message) => message.id);
      void change(() => api.ownMessagesCalls.reorderMessages(category.id, moved(ids, index, delta)), undefined, {
        key: `order in ${category.id}`,
      }).catch(() => undefined);
    },
    [change, category, unfoldAt],
  );
  return (
    <li className="rounded-2xl border border-line bg-surface-raised p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <InlineEdit
          typed
          value={category.name}
          label={`name of ${category.name}`}
          max={OWN_CATEGORY_NAME_MAX}
          // Wrapped, never cut: on a phone the name has its own line, its buttons the next.
          className="font-medium"
          onSave={(name) =>
            change(() => api.ownMessagesCalls.renameCategory(category.id, name), `Renamed to ${isolated(name)}.`, {
              key: `rename ${category.id}`,
            })
          }
        />
        <div className="flex shrink-0 items-center gap-1">
          <MoveButtons
            index={index}
            count={categoryIds.length}
            label={category.name}
            onMove={(delta) =>
              void change(() => api.ownMessagesCalls.reorderCategories(moved(categoryIds, index, delta)), undefined, {
                key: 'order of categories',
              }).catch(() => undefined)
            }
          />
          <AddToPlaylistButton
            name={category.name}
            added={added}
            disabled={category.messages.length === 0}
            onAdd={() => onAdd(category)}
          />
          {/* After a downgrade a shared category can still be unshared, not shared anew. */}
          {shareable || category.share ? (
            <ShareDialog
              name={category.name}
              share={category.share}
              onShare={() =>
                change(() => ownCategoryShares.share(category.id), 'Link created.', { key: `share ${category.id}` })
              }
              onStop={() =>
                change(() => ownCategoryShares.unshare(category.id), 'Sharing stopped: the link no longer works.', {
                  key: `unshare ${category.id}`,
                })
              }
            />
          ) : null}
          <ConfirmDelete
            label={`Delete ${category.name}`}
            title={
              <>
                Delete "<bdi>{category.name}</bdi>"?
              </>
            }
            description="The category and its messages are removed from your account."
            onConfirm={() =>
              change(() => api.ownMessagesCalls.deleteCategory(category.id), `Deleted ${isolated(category.name)}.`, {
                key: `delete ${category.id}`,
              })
            }
            keyboardWhenNoneLeft={keyboardWhenNoneLeft}
          />
        </div>
      </div>
      {/* In a narrow list (a phone, or the two columns of a small laptop) a message too long to sit beside its
          buttons takes the row, the buttons going under it: beside them it was squeezed to a word a line. */}
      <ul {...fold.list} className="@container mt-2 divide-y divide-line empty:hidden">
        {category.messages.map((message, i) => (
          <OwnMessageRow
            key={message.id}
            message={message}
            index={i}
            count={category.messages.length}
            folded={fold.isFolded(i)}
            change={change}
            onMove={move}
            onAddMessage={onAddMessage}
            categoryId={category.id}
            onDelete={onDeleteMessage}
          />
        ))}
      </ul>
      <ShowFoldedRows folded={fold.folded} what={MESSAGE_ROWS} onShow={fold.unfold} />
      <div className="mt-3">
        <AddForm
          typed
          label={newMessageLabel(category.name)}
          action={`Add the message to ${category.name}`}
          placeholder="I am…"
          max={OWN_MESSAGE_TEXT_MAX}
          draft={addDraft(category.id)}
          onAdd={async (text) => {
            await change(() => api.ownMessagesCalls.addMessage(category.id, text), 'Message added.', {
              key: `add to ${category.id}`,
            });
            // It comes last: shown, not folded away under the others.
            fold.unfold();
          }}
        />
      </div>
    </li>
  );
});

const EXPORT_TYPES: Record<ExportFormat, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
};

/** Downloads all of one's own messages as a file (Pro). */
function ExportButtons() {
  const download = async (format: ExportFormat) => {
    try {
      const content = await exportOwnMessages(format);
      const day = new Date().toISOString().slice(0, 10);
      saveAsFile(`innerwave-my-messages-${day}.${format}`, content, EXPORT_TYPES[format]);
    } catch (error) {
      toastFailure(error);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-fg-muted">Export all:</span>
      {EXPORT_FORMATS.map((format) => (
        <Button
          key={format}
          size="sm"
          variant="secondary"
          onClick={() => void download(format)}
          aria-label={`Export my messages as ${format.toUpperCase()}`}
        >
          <Download aria-hidden className="h-4 w-4" /> {format.toUpperCase()}
        </Button>
      ))}
    </div>
  );
}

/** The person's own categories and messages, kept with their account; each can join the playlist. */
export function MyMessagesPanel({
  isAdded,
  onAdd,
  onAddMessage,
}: {
  isAdded(category: MessageCategory): boolean;
  onAdd(category: MessageCategory): void;
  onAddMessage(item: PlaylistItem): void;
}) {
  const query = useQuery(api.ownCategoriesQuery());
  const change = api.useOwnMessagesChange();
  // Export and share are offered, or locked, once the plan is read (decision 124).
  const { has } = usePlan();
  const canExport = has('exportMessages');
  const categoryIds = useMemo(() => query.data?.map((category) => category.id) ?? [], [query.data]);
  // One asking dialog for every message's delete button: a dialog a row made opening a thousand messages slow.
  const [deleting, setDeleting] = useState<{ message: OwnMessage; categoryId: number; control: HTMLElement } | null>(
    null,
  );
  const askDelete = useCallback(
    (message: OwnMessage, categoryId: number, control: HTMLElement) => setDeleting({ message, categoryId, control }),
    [],
  );
  const addCategory = useRef<HTMLDivElement>(null);
  // The last category deleted, the keyboard goes to the field that adds one
  // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const newCategoryField = useCallback(() => addCategory.current?.querySelector('input') ?? null, []);
  return (
    <section aria-labelledby="my-messages-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="my-messages-heading" className="card-heading">
          My messages
        </h2>
        {/* Above the theme picker's word of it, scrolled away on a phone: it says why its buttons wait (decision 140). */}
        <PlanReadFailed
          feature="exportMessages"
          brief
          detail="Your plan could not be loaded: export and sharing show once it is."
        >
          {canExport !== false ? null : (
            <PlanLock feature="exportMessages" what="Exporting and sharing your messages" label="Export & share" />
          )}
        </PlanReadFailed>
      </div>
      <div ref={addCategory}>
        <AddForm
          typed
          label="New category of your own"
          max={OWN_CATEGORY_NAME_MAX}
          action="Add the category"
          placeholder="New category"
          onAdd={(name) =>
            change(() => api.ownMessagesCalls.createCategory(name), `Created ${isolated(name)}.`, { key: 'create' })
          }
        />
      </div>
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={query.data?.length === 0}
        emptyText={OWN_EMPTY}
        onRetry={() => void query.refetch()}
      >
        <ul className="flex flex-col gap-3">
          {query.data?.map((category, index) => (
            <OwnCategoryCard
              key={category.id}
              category={category}
              index={index}
              categoryIds={categoryIds}
              change={change}
              shareable={has('shareMessages') === true}
              added={category.messages.length > 0 && isAdded(category)}
              onAdd={onAdd}
              onAddMessage={onAddMessage}
              onDeleteMessage={askDelete}
              keyboardWhenNoneLeft={newCategoryField}
            />
          ))}
        </ul>
      </QueryState>
      <ConfirmDeleteDialog
        asking={
          deleting && {
            title: 'Delete this message?',
            description: deleting.message.message_text,
            onConfirm: async () => {
              const { message, categoryId, control } = deleting;
              // The keyboard on Delete goes, once the row has, to the Delete of the row in its place, or to the field
              // that adds a message to the category its last message left (decision 113).
              const categoryName = query.data?.find((category) => category.id === categoryId)?.name;
              const card = control.closest('ul')?.closest('li');
              const moveKeyboard = keyboardToNeighbourOnceGone(control, '.icon-trash', undefined, () =>
                categoryName === undefined
                  ? null
                  : (Array.from(card?.querySelectorAll('input') ?? []).find(
                      (field) => field.getAttribute('aria-label') === newMessageLabel(categoryName),
                    ) ?? null),
              );
              await change(() => api.ownMessagesCalls.deleteMessage(message.id), undefined, {
                key: `delete message ${message.id}`,
              });
              moveKeyboard();
              // Undo writes the text again, at the end of its category; failed offline, the toast comes back for
              // another press (decision 144).
              toast.success('Message deleted.', {
                action: {
                  label: 'Undo',
                  onClick: () =>
                    change(
                      () => api.ownMessagesCalls.addMessage(categoryId, message.message_text),
                      'Message restored.',
                      AS_AN_UNDO,
                    ),
                },
              });
            },
          }
        }
        onClose={() => setDeleting(null)}
      />
      {canExport === true && query.data && query.data.length > 0 ? <ExportButtons /> : null}
    </section>
  );
}
