import { readSessionClock, useEngineClock } from '@web/lib/audio/use-sound-engine';

/** Seconds each message stays: long enough to read it twice, slowly. */
export const MESSAGE_SECONDS = 9;

/**
 * A day's messages while its session plays: one at a time, changing every few seconds with a slow
 * fade (stilled under reduced motion by styles.css). It never flashes; the flashing player is the
 * Subliminals page's, behind its own photosensitivity notice. Which message shows follows the session's clock (the
 * time heard, the mini-player's), so a pause holds it and the page shown again while the day plays (Back to it) goes
 * on from the message of that moment rather than from the first
 * (docs/decisions/155-a-paying-members-month-walked.md).
 */
export function MessageReader({ messages, playing }: { messages: readonly string[]; playing: boolean }) {
  const { elapsed } = useEngineClock(readSessionClock, playing);
  const count = Math.max(1, messages.length);
  const index = Math.floor(elapsed / MESSAGE_SECONDS) % count;
  const message = messages[index] ?? '';
  return (
    <figure className="flex min-h-40 flex-col items-center justify-center rounded-3xl border border-line bg-surface px-6 py-10 text-center">
      <blockquote
        key={index}
        className="max-w-xl text-2xl font-medium leading-snug text-balance animate-fade-in sm:text-3xl"
      >
        {message}
      </blockquote>
      <figcaption className="mt-4 text-sm text-fg-muted">
        Message {index + 1} of {messages.length}
      </figcaption>
    </figure>
  );
}
