import { useEffect, useState } from 'react';

/** Seconds each message stays: long enough to read it twice, slowly. */
export const MESSAGE_SECONDS = 9;

/**
 * A day's messages while its session plays: one at a time, changing every few seconds with a slow
 * fade (stilled under reduced motion by styles.css). It never flashes; the flashing player is the
 * Subliminals page's, behind its own photosensitivity notice.
 */
export function MessageReader({ messages, playing }: { messages: readonly string[]; playing: boolean }) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!playing || messages.length < 2) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % messages.length), MESSAGE_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [playing, messages.length]);
  const message = messages[index % Math.max(1, messages.length)] ?? '';
  return (
    <figure className="flex min-h-40 flex-col items-center justify-center rounded-3xl border border-line bg-surface px-6 py-10 text-center">
      <blockquote
        key={index}
        className="max-w-xl text-2xl font-medium leading-snug text-balance animate-fade-in sm:text-3xl"
      >
        {message}
      </blockquote>
      <figcaption className="mt-4 text-sm text-fg-muted">
        Message {(index % Math.max(1, messages.length)) + 1} of {messages.length}
      </figcaption>
    </figure>
  );
}
