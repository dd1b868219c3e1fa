import { Trash2, X } from 'lucide-react';
import type { Message } from '@shared/contract';
import { Button } from '@web/components/ui/button';

export function PlaylistPanel({
  playlist,
  onRemove,
  onClear,
}: {
  playlist: readonly Message[];
  onRemove(index: number): void;
  onClear(): void;
}) {
  return (
    <section aria-labelledby="playlist-heading" className="rounded-3xl border border-line bg-surface-raised p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 id="playlist-heading" className="text-lg font-semibold">
          Playlist <span className="text-sm font-normal text-fg-muted">({playlist.length})</span>
        </h2>
        <Button size="sm" variant="ghost" onClick={onClear} disabled={playlist.length === 0}>
          <Trash2 aria-hidden className="h-4 w-4" /> Clear all
        </Button>
      </div>
      {playlist.length === 0 ? (
        <p className="mt-3 text-sm text-fg-muted">Your playlist is empty. Add a category to begin.</p>
      ) : (
        <ol className="mt-3 flex max-h-80 flex-col gap-1 overflow-y-auto pr-1 text-sm">
          {playlist.map((message, index) => (
            // Duplicates are allowed, so the position is part of the key.
            <li
              key={`${index}-${message.id}`}
              className="flex items-start justify-between gap-2 rounded-xl px-2 py-1.5 hover:bg-black/5 dark:hover:bg-white/5"
            >
              <span className="min-w-0 wrap-anywhere">{message.message_text}</span>
              <button
                type="button"
                onClick={() => onRemove(index)}
                className="shrink-0 rounded-full p-1 text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus-ring"
                aria-label={`Remove “${message.message_text}” from playlist`}
              >
                <X aria-hidden className="h-4 w-4" />
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
