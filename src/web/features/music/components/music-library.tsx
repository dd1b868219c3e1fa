import { useCallback, useRef } from 'react';
import { AUDIO_LISTS } from '../api/audio-lists';
import { useAudioPlayer, type AudioElement } from '../hooks/use-audio-player';
import { AudioList } from './audio-list';

/** The three audio libraries sharing one <audio> element, so one track plays at a time. */
export function MusicLibrary({ createAudio }: { createAudio?: () => AudioElement }) {
  const element = useRef<HTMLAudioElement>(null);
  const pageAudio = useCallback((): AudioElement => {
    if (!element.current) throw new Error('the music player element is not mounted');
    return element.current;
  }, []);
  const { playback, toggle } = useAudioPlayer(createAudio ?? pageAudio);
  return (
    <div className="flex flex-col gap-10">
      <audio ref={element} data-testid="music-player" preload="none" hidden />
      {AUDIO_LISTS.map((list) => (
        <AudioList key={list.kind} {...list} playback={playback} onToggle={toggle} />
      ))}
    </div>
  );
}
