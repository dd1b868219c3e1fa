import type { Message, MessageCategory } from '@shared/contract';
import type { SessionTag } from '@web/lib/audio/session-ends';
import type { PlaylistItem } from './player-storage';

/** A message on the session screen; one with no source is the library's. */
export type FlashedMessage = Message & { source?: PlaylistItem['source'] };

/** How history names messages flashed with no sound when none of them is from the library. */
export const FLASHED_MESSAGES_TITLE = 'Subliminal messages';
const SOURCE_TITLES = { own: 'My messages', shared: 'Shared messages' } as const;

/**
 * How history names a session of flashed messages (docs/product/screens.md#your-practice): by the
 * library categories its messages come from, in playlist order ("Confidence + Calm"), then "My
 * messages" or "Shared messages" for the others; its `ref` is `category:<id>` when every message is
 * from one library category. The recommendations read these titles.
 */
export function flashSessionTag(
  playlist: readonly FlashedMessage[],
  categories: readonly MessageCategory[] = [],
): SessionTag {
  const categoryOf = new Map<number, MessageCategory>();
  for (const category of categories) for (const message of category.messages) categoryOf.set(message.id, category);
  const names = new Map<string, number | null>();
  for (const item of playlist) {
    const source = item.source ?? 'library';
    const category = source === 'library' ? categoryOf.get(item.id) : undefined;
    if (category) names.set(category.name, category.id);
    else names.set(source === 'library' ? FLASHED_MESSAGES_TITLE : SOURCE_TITLES[source], null);
  }
  const [only] = names.values();
  return {
    title: [...names.keys()].join(' + ') || FLASHED_MESSAGES_TITLE,
    ...(names.size === 1 && typeof only === 'number' ? { ref: `category:${only}` } : {}),
  };
}
