import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

export const PLAY_FAILED = 'Failed to play audio';

export type PlaybackStatus = 'loading' | 'playing' | 'paused';
export interface Playback {
  key: string;
  status: PlaybackStatus;
}

/** What the player needs of an <audio> element (tests pass a fake). */
export type AudioElement = Pick<
  HTMLAudioElement,
  'src' | 'play' | 'pause' | 'addEventListener' | 'removeEventListener' | 'removeAttribute' | 'load'
>;

/**
 * One shared audio element, so one item plays at a time. Per item: absent → loading (after play)
 * → playing ↔ paused; ending or an error clears it, an error with 'Failed to play audio'.
 */
export function useAudioPlayer(createAudio: () => AudioElement) {
  const audio = useRef<AudioElement | null>(null);
  const [playback, setPlayback] = useState<Playback | null>(null);
  const current = useRef<Playback | null>(null);

  const update = useCallback((next: Playback | null) => {
    current.current = next;
    setPlayback(next);
  }, []);

  const element = useCallback((): AudioElement => {
    if (audio.current) return audio.current;
    const created = createAudio();
    created.addEventListener('playing', () => current.current && update({ ...current.current, status: 'playing' }));
    created.addEventListener(
      'pause',
      () => current.current?.status === 'playing' && update({ ...current.current, status: 'paused' }),
    );
    created.addEventListener('ended', () => update(null));
    created.addEventListener('error', () => {
      if (!current.current) return;
      update(null);
      toast.error(PLAY_FAILED);
    });
    audio.current = created;
    return created;
  }, [createAudio, update]);

  useEffect(
    () => () => {
      audio.current?.pause();
      audio.current?.removeAttribute('src');
    },
    [],
  );

  const toggle = useCallback(
    (key: string, url: string) => {
      const player = element();
      const now = current.current;
      if (now?.key === key && now.status !== 'paused') {
        player.pause();
        update({ key, status: 'paused' });
        return;
      }
      if (now?.key !== key) {
        player.src = url;
        update({ key, status: 'loading' });
      } else {
        update({ key, status: 'loading' });
      }
      player.play().then(
        () => current.current?.key === key && update({ key, status: 'playing' }),
        (error: unknown) => {
          // A newer play() or a pause() interrupting this one is not a failure.
          if (error instanceof DOMException && error.name === 'AbortError') return;
          if (current.current?.key !== key) return;
          update(null);
          toast.error(PLAY_FAILED);
        },
      );
    },
    [element, update],
  );

  return { playback, toggle };
}
