import { useState } from 'react';
import { clsx } from 'clsx';
import { formatInteger } from '@shared/numbers';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@web/components/ui/dialog';
import { countCategories, countMessages, type ImportedCategory, type ImportSummary } from '../lib/import-summary';

function change(category: ImportedCategory): string {
  if (category.before === null) return `new · ${countMessages(category.after)}`;
  if (category.unchanged) return `${countMessages(category.after)}, unchanged`;
  return `${countMessages(category.before)} → ${formatInteger(category.after)}`;
}

/**
 * What an import will do, before it does it: the categories it adds and replaces, each with its messages
 * before → after, and a warning naming those that lose messages. Nothing is written until Import.
 */
export function ImportPreview({
  fileName,
  summary,
  onImport,
  onClose,
}: {
  fileName: string;
  summary: ImportSummary;
  onImport: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const losing = summary.losing;
  const lost = losing.reduce((n, category) => n + (category.before ?? 0) - category.after, 0);
  async function confirm() {
    setBusy(true);
    try {
      await onImport();
      onClose();
    } catch {
      // The failure is told by a toast; the dialog stays so the import can be tried again or cancelled.
    } finally {
      setBusy(false);
    }
  }
  const parts = [
    summary.added ? `${countCategories(summary.added)} added` : '',
    summary.replaced ? `${countCategories(summary.replaced)} replaced` : '',
  ].filter(Boolean);
  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent
        title={
          <>
            Import <bdi>{fileName}</bdi>?
          </>
        }
        description={`${parts.join(', ')}. Categories the file does not name stay as they are.`}
      >
        {summary.replaced ? (
          <p className="text-sm">
            Messages in the replaced categories: {formatInteger(summary.messagesBefore)} →{' '}
            {formatInteger(summary.messagesAfter)}.
          </p>
        ) : null}
        {losing.length ? (
          <p role="alert" className="mt-3 rounded-2xl border border-danger/40 bg-danger/10 p-3 text-sm">
            {losing.length === 1 ? (
              <>
                "<bdi>{losing[0]!.name}</bdi>" loses
              </>
            ) : (
              `${countCategories(losing.length)} lose`
            )}{' '}
            {countMessages(lost)}: the file&apos;s messages replace theirs, and this cannot be undone. Export first to
            keep a copy.
          </p>
        ) : null}
        <ul
          aria-label="Categories in the file"
          className="mt-3 max-h-64 overflow-y-auto rounded-2xl border border-line text-sm"
        >
          {summary.categories.map((category) => {
            const losesMessages = category.before !== null && category.after < category.before;
            return (
              <li
                key={category.name}
                className="flex items-baseline justify-between gap-3 border-t border-line px-3 py-1.5 first:border-t-0"
              >
                <span className="min-w-0 break-words">{category.name}</span>
                <span
                  className={clsx('shrink-0 text-right', losesMessages ? 'font-medium text-danger' : 'text-fg-muted')}
                >
                  {change(category)}
                </span>
              </li>
            );
          })}
        </ul>
        <div className="mt-4 flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary" busy={busy}>
              Cancel
            </Button>
          </DialogClose>
          <Button variant={losing.length ? 'danger' : 'primary'} onClick={() => void confirm()} busy={busy}>
            {busy ? 'Importing…' : losing.length ? 'Replace and import' : 'Import'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
