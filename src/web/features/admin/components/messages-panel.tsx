import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowDown, ArrowUp, Download, Plus, Upload } from 'lucide-react';
import { messagesFileSchema, type AdminCategory } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import * as api from '../api/categories';
import { ConfirmDelete } from './confirm-delete';
import { InlineEdit } from './inline-edit';
import { describeError, type AdminChange } from '../api/change';
import { panelClass, QueryState } from './states';

/** The ids with the one at `index` moved by `delta` places. */
const moved = (ids: number[], index: number, delta: number) => {
  const next = [...ids];
  const [id] = next.splice(index, 1);
  next.splice(index + delta, 0, id!);
  return next;
};

function MoveButtons({
  index,
  count,
  label,
  onMove,
}: {
  index: number;
  count: number;
  label: string;
  onMove: (delta: number) => void;
}) {
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Move ${label} up`}
        title="Move up"
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <ArrowUp aria-hidden className="h-4 w-4" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Move ${label} down`}
        title="Move down"
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <ArrowDown aria-hidden className="h-4 w-4" />
      </Button>
    </>
  );
}

function AddForm({
  label,
  action,
  placeholder,
  onAdd,
}: {
  label: string;
  /** The button's accessible name: one "Add" per category would be ambiguous to a screen reader. */
  action: string;
  placeholder: string;
  onAdd: (text: string) => Promise<unknown>;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    try {
      await onAdd(text.trim());
      setText('');
    } catch {
      // Reported by the caller; the text stays for another try.
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="flex gap-2">
      <Input
        aria-label={label}
        placeholder={placeholder}
        value={text}
        disabled={busy}
        onChange={(event) => setText(event.target.value)}
        className="h-10"
      />
      <Button type="submit" size="sm" className="h-10 shrink-0" disabled={busy || !text.trim()} aria-label={action}>
        <Plus aria-hidden className="h-4 w-4" />
        Add
      </Button>
    </form>
  );
}

function CategoryCard({
  category,
  index,
  categoryIds,
  run,
}: {
  category: AdminCategory;
  index: number;
  categoryIds: number[];
  run: AdminChange;
}) {
  const ids = category.messages.map((m) => m.id);
  return (
    <li className="rounded-2xl border border-line p-4">
      <div className="flex items-center justify-between gap-2">
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
            className="flex items-center justify-between gap-2 border-t border-line py-1 first:border-t-0"
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

/** Message categories and their messages: create, rename, reorder, delete; import and export JSON. */
export function MessagesPanel() {
  const query = useQuery(api.adminCategoriesQuery());
  const run = api.useCategoriesChange();
  const fileInput = useRef<HTMLInputElement>(null);
  const categories = query.data ?? [];

  async function exportFile() {
    try {
      const data = await api.exportMessages();
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: 'innerwave-messages.json' });
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.error(describeError(error));
    }
  }

  async function importFile(file: File) {
    let parsed;
    try {
      parsed = messagesFileSchema.safeParse(JSON.parse(await file.text()));
    } catch {
      toast.error(`${file.name} is not valid JSON.`);
      return;
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      toast.error(`${file.name} is not a messages file: ${issue?.path.join('.')} ${issue?.message}`);
      return;
    }
    const data = parsed.data;
    await run(async () => {
      const result = await api.importMessages(data);
      toast.success(
        `Imported ${result.messages} messages: ${result.categories_created} categories created, ${result.categories_updated} replaced.`,
      );
    }).catch(() => undefined);
  }

  return (
    <section className={panelClass} aria-labelledby="messages-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="messages-heading" className="text-xl font-semibold">
          Message categories
        </h2>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()}>
            <Upload aria-hidden className="h-4 w-4" />
            Import JSON
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="hidden"
            aria-label="Import messages file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void importFile(file);
            }}
          />
          <Button variant="secondary" size="sm" onClick={() => void exportFile()}>
            <Download aria-hidden className="h-4 w-4" />
            Export JSON
          </Button>
        </div>
      </div>
      <p className="mt-1 text-sm text-fg-muted">
        Importing replaces the messages of every category the file names; other categories stay as they are.
      </p>
      <div className="mt-4">
        <AddForm
          label="New category name"
          action="Add the category"
          placeholder="New category"
          onAdd={(name) => run(() => api.createCategory(name), `Created ${name}.`)}
        />
      </div>
      <div className="mt-4">
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={categories.length === 0}
          emptyText="No message categories yet. Create one above or import a file."
          onRetry={() => void query.refetch()}
        >
          <ol className="flex flex-col gap-3">
            {categories.map((category, index) => (
              <CategoryCard
                key={category.id}
                category={category}
                index={index}
                categoryIds={categories.map((c) => c.id)}
                run={run}
              />
            ))}
          </ol>
        </QueryState>
      </div>
    </section>
  );
}
