import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import type { MessagesFile } from '@shared/contract';
import { CATEGORY_NAME_MAX, MESSAGES_IMPORT_LIMITS, messagesFileSchema } from '@shared/contract/admin';
import { drfMessage } from '@shared/contract/drf-messages';
import { Button } from '@web/components/ui/button';
import * as api from '../api/categories';
import { saveAsFile } from '@web/lib/download';
import { toastFailure } from '@web/lib/change';
import { AddForm } from '@web/components/ui/add-form';
import { CategoryCard } from './category-card';
import { QueryState } from '@web/components/ui/query-state';
import { formatSize, panelClass } from './states';
import { ImportPreview } from './import-preview';
import { describeFileIssues, summarizeImport, type ImportSummary } from '../lib/import-summary';
import { toastProblem } from '@web/lib/toast-problem';
import { isolated } from '@shared/contract/plain';

/** Message categories and their messages: create, rename, reorder, delete; import and export JSON. */
export function MessagesPanel() {
  const query = useQuery(api.adminCategoriesQuery());
  const run = api.useCategoriesChange();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const addCategory = useRef<HTMLDivElement>(null);
  // The last category deleted, the keyboard goes to the field that adds one
  // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const newCategoryField = () => addCategory.current?.querySelector('input') ?? null;
  const [preview, setPreview] = useState<{ fileName: string; file: MessagesFile; summary: ImportSummary } | null>(null);
  /** The category just created here: it comes last, far down a long library, and is brought to the keyboard. */
  const [created, setCreated] = useState<number | null>(null);
  const categories = query.data ?? [];

  async function exportFile() {
    try {
      const data = await api.exportMessages();
      saveAsFile('innerwave-messages.json', JSON.stringify(data, null, 2), 'application/json');
    } catch (error) {
      toastFailure(error);
    }
  }

  async function importFile(file: File) {
    // Not read at all: the server would refuse it whole (413), and reading it could stall the page.
    if (file.size > MESSAGES_IMPORT_LIMITS.bytes) {
      toastProblem(
        `${isolated(file.name)} is larger than ${formatSize(MESSAGES_IMPORT_LIMITS.bytes)}, the most an import takes.`,
      );
      return;
    }
    let parsed;
    try {
      // Worded as the server words the same refusal, never in the validation library's words.
      parsed = messagesFileSchema.safeParse(JSON.parse(await file.text()), { error: drfMessage });
    } catch {
      toastProblem(`${isolated(file.name)} is not valid JSON.`);
      return;
    }
    if (!parsed.success) {
      toastProblem(`${isolated(file.name)} is not a messages file: ${describeFileIssues(parsed.error.issues)}`);
      return;
    }
    const data = parsed.data;
    // The summary is drawn against the library as it is now, not as this page last loaded it.
    let library;
    try {
      library = await queryClient.fetchQuery({ ...api.adminCategoriesQuery(), staleTime: 0 });
    } catch (error) {
      toastFailure(error);
      return;
    }
    setPreview({ fileName: file.name, file: data, summary: summarizeImport(data, library) });
  }

  const importPreviewed = (data: MessagesFile) =>
    run(
      () => api.importMessages(data),
      (result) =>
        `Imported ${result.messages} messages: ${result.categories_created} categories created, ${result.categories_updated} replaced.`,
      { key: 'import' },
    );

  return (
    <section className={panelClass} aria-labelledby="messages-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="messages-heading" className="card-heading">
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
        Importing replaces the messages of every category the file names; other categories stay as they are. You see
        what it will change before anything is written.
      </p>
      {preview ? (
        <ImportPreview
          fileName={preview.fileName}
          summary={preview.summary}
          onImport={() => importPreviewed(preview.file)}
          onClose={() => setPreview(null)}
        />
      ) : null}
      <div ref={addCategory} className="mt-4">
        <AddForm
          label="New category name"
          action="Add the category"
          placeholder="New category"
          typed
          max={CATEGORY_NAME_MAX}
          onAdd={async (name) =>
            setCreated((await run(() => api.createCategory(name), `Created ${isolated(name)}.`, { key: 'create' })).id)
          }
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
                justCreated={category.id === created}
                run={run}
                keyboardWhenNoneLeft={newCategoryField}
              />
            ))}
          </ol>
        </QueryState>
      </div>
    </section>
  );
}
