import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { Trash2 } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { MESSAGE_ROWS, ShowFoldedRows, useFold, useFoldedRows } from '@web/components/ui/folded-rows';
import { keyboardToNeighbourOnceGone } from '@web/lib/keyboard-after-removal';
import type { PlaylistItem } from '../lib/player-storage';

/**
 * A key for each playlist item that stays with it while others are removed around it. Duplicates are allowed
 * and share an id, so it is the item itself that is numbered: keyed by position, removing the first of a
 * thousand messages built the 999 after it anew.
 */
const itemKeys = new WeakMap<PlaylistItem, number>();
let lastKey = 0;
const keyOf = (item: PlaylistItem) => {
  let key = itemKeys.get(item);
  if (key === undefined) itemKeys.set(item, (key = ++lastKey));
  return key;
};

/** One message of the playlist: rendered again only when it or its Remove changes, not when another one does. */
const PlaylistRow = memo(function PlaylistRow({
  item,
  folded,
  onRemove,
  keyboardWhenNoneLeft,
}: {
  item: PlaylistItem;
  folded: boolean;
  onRemove(item: PlaylistItem): void;
  /** Where the keyboard goes from Remove once this was the playlist's last message. */
  keyboardWhenNoneLeft(): HTMLElement | null;
}) {
  const foldRef = useFold(folded);
  return (
    <li
      ref={foldRef}
      // On a touch screen Remove is 44 × 44 px, into the row's padding (a row of one line 44 px tall, where it was
      // 36), its cross beside the text's middle (decision 121).
      className="flex items-start justify-between gap-2 rounded-xl px-2 py-1.5 hover:bg-black/5 pointer-coarse:items-center dark:hover:bg-white/5"
    >
      <span dir="auto" className="min-w-0 wrap-anywhere">
        {item.message_text}
      </span>
      <button
        type="button"
        onClick={(event) => {
          // To the Remove of the row in its place, or the playlist's heading once it is empty, not the page's top
          // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
          const moveKeyboard = keyboardToNeighbourOnceGone(
            event.currentTarget,
            '.icon-x',
            undefined,
            keyboardWhenNoneLeft,
          );
          onRemove(item);
          moveKeyboard();
        }}
        className="icon-x flex shrink-0 rounded-full p-1 text-fg-muted pointer-coarse:-my-1.5 pointer-coarse:p-3.5 hover:text-fg focus-visible:outline-2 focus-visible:outline-focus-ring"
        aria-label={`Remove “${item.message_text}” from playlist`}
      />
    </li>
  );
});

/** The playlist shows this many messages; "Show the other …" the rest (components/ui/folded-rows.tsx). */
export const PLAYLIST_ROWS_SHOWN = 50;

/** Messages the person has just added at the end of the playlist: the first of them, and how many. */
export interface AddedRows {
  first: PlaylistItem;
  count: number;
}

/**
 * The playlist; a change of the player's settings does not render it again. Messages just `added` (a new object
 * each time) are shown: a long playlist unfolds when any of them would be folded, and its box scrolls to the first
 * of them, the page staying where it is (docs/decisions/065-added-messages-are-shown-in-the-playlist.md).
 */
export const PlaylistPanel = memo(function PlaylistPanel({
  playlist,
  added = null,
  onRemove,
  onClear,
}: {
  playlist: readonly PlaylistItem[];
  added?: AddedRows | null;
  /** Removes this item (not another equal to it). */
  onRemove(item: PlaylistItem): void;
  onClear(): void;
}) {
  const fold = useFoldedRows(playlist.length, PLAYLIST_ROWS_SHOWN);
  // The addition being shown, and where its first row is: unfolded in this render, scrolled to once committed.
  const [reveal, setReveal] = useState<{ added: AddedRows | null; index: number }>({ added, index: -1 });
  if (reveal.added !== added) {
    const index = added ? playlist.indexOf(added.first) : -1;
    setReveal({ added, index });
    if (added && index >= 0 && index + added.count > PLAYLIST_ROWS_SHOWN) fold.unfoldInRender();
  }
  const box = useRef<HTMLDivElement>(null);
  const listId = fold.list.id;
  useLayoutEffect(() => {
    const row = reveal.index < 0 ? undefined : document.getElementById(listId)?.children[reveal.index];
    if (!row || !box.current) return;
    // Within the playlist's own box only: scrolling the page would take a person adding from the categories (above
    // the playlist on a phone) away from them. Left as it is when the row shows with room under it.
    const rowTop = row.getBoundingClientRect().top;
    const { top, bottom } = box.current.getBoundingClientRect();
    if (rowTop < top || rowTop + row.clientHeight > bottom) box.current.scrollTop += rowTop - top;
  }, [reveal, listId]);
  const heading = useRef<HTMLHeadingElement>(null);
  const keyboardWhenNoneLeft = useCallback(() => heading.current, []);
  // The same item twice in one list (never made by the player, which copies what it adds) still gets two keys.
  const seen = new Set<PlaylistItem>();
  return (
    <section aria-labelledby="playlist-heading" className="rounded-3xl border border-line bg-surface-raised p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 ref={heading} id="playlist-heading" tabIndex={-1} className="card-heading outline-none">
          Playlist <span className="text-sm font-normal text-fg-muted">({playlist.length})</span>
        </h2>
        <Button
          size="sm"
          variant="ghost"
          onClick={(event) => {
            // Unavailable once the playlist is empty, it would drop the keyboard to the page's top: the heading takes it.
            const held = document.activeElement === event.currentTarget;
            onClear();
            if (held) heading.current?.focus();
          }}
          disabled={playlist.length === 0}
        >
          <Trash2 aria-hidden className="h-4 w-4" /> Clear all
        </Button>
      </div>
      {playlist.length === 0 ? (
        <p className="mt-3 text-sm text-fg-muted">Your playlist is empty. Add a category to begin.</p>
      ) : (
        <div ref={box} className="mt-3 max-h-80 overflow-y-auto pr-1">
          {/* Rows apart by margins, not a flex gap: a folded row takes none (styles.css). */}
          <ol {...fold.list} className="space-y-1 text-sm">
            {playlist.map((item, index) => {
              const key = seen.has(item) ? `${keyOf(item)}@${index}` : String(keyOf(item));
              seen.add(item);
              return (
                <PlaylistRow
                  key={key}
                  item={item}
                  folded={fold.isFolded(index)}
                  onRemove={onRemove}
                  keyboardWhenNoneLeft={keyboardWhenNoneLeft}
                />
              );
            })}
          </ol>
          <ShowFoldedRows folded={fold.folded} what={MESSAGE_ROWS} onShow={fold.unfold} />
        </div>
      )}
    </section>
  );
});
