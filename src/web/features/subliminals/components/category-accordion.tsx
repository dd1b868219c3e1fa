import * as Accordion from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { MessageCategory } from '@shared/contract';
import { AddToPlaylistButton } from './add-to-playlist-button';

/**
 * The categories, one open at a time (clicking the open one closes it), each addable as a whole. Only
 * the open one's content is in the page: each mounted content measures itself when it mounts, so a closed
 * one for each category made the page's first render lay the page out once per category.
 */
export function CategoryAccordion({
  categories,
  opened = null,
  isAdded,
  onAdd,
}: {
  categories: readonly MessageCategory[];
  /** The category to open at first and bring into view (the page's `?category=`); one not listed opens none. */
  opened?: number | null;
  /** Whether all of the category's messages are in the playlist already. */
  isAdded(category: MessageCategory): boolean;
  onAdd(category: MessageCategory): void;
}) {
  const [open, setOpen] = useState(() =>
    opened !== null && categories.some((category) => category.id === opened) ? String(opened) : '',
  );
  // Arrived to read one category (a recommendation's link): it is brought into view, once.
  const openedItem = useRef<HTMLDivElement>(null);
  useEffect(() => {
    openedItem.current?.scrollIntoView?.({ block: 'start' });
  }, []);
  return (
    <Accordion.Root type="single" collapsible value={open} onValueChange={setOpen} className="flex flex-col gap-2">
      {categories.map((category) => (
        <Accordion.Item
          key={category.id}
          ref={String(category.id) === open && category.id === opened ? openedItem : undefined}
          value={String(category.id)}
          // Brought into view below the sticky bar (4rem), not under it.
          className="scroll-mt-24 overflow-hidden rounded-2xl border border-line bg-surface-raised"
        >
          {/* The heading holds the category's trigger alone: with the Add button in it, a heading read out or
              listed by a screen reader was "Confidence 18 messages Add Confidence to playlist". */}
          <div className="flex items-center gap-2 pr-3">
            <Accordion.Header className="flex min-w-0 flex-1">
              <Accordion.Trigger className="group flex flex-1 items-center justify-between gap-3 px-4 py-3 text-left font-medium focus-visible:outline-2 focus-visible:outline-focus-ring">
                {/* The count always under the name, as the other lists' muted lines are: beside it, it went under a
                    name too long for the row, so rows of one list stood 48 and 68 px tall side by side
                    (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md). */}
                <span className="flex min-w-0 flex-col">
                  <span dir="auto" className="wrap-anywhere">
                    {category.name}
                  </span>
                  <span className="whitespace-nowrap text-sm font-normal text-fg-muted">
                    {category.messages.length} messages
                  </span>
                </span>
                <ChevronDown
                  aria-hidden
                  className="h-4 w-4 shrink-0 transition-transform group-data-[state=open]:rotate-180 motion-reduce:transition-none"
                />
              </Accordion.Trigger>
            </Accordion.Header>
            <AddToPlaylistButton name={category.name} added={isAdded(category)} onAdd={() => onAdd(category)} />
          </div>
          {open === String(category.id) ? (
            <Accordion.Content className="border-t border-line px-4 py-3">
              <ul className="flex flex-col gap-1.5 text-sm text-fg-muted">
                {category.messages.map((message) => (
                  <li key={message.id} dir="auto">
                    {message.message_text}
                  </li>
                ))}
              </ul>
            </Accordion.Content>
          ) : null}
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
