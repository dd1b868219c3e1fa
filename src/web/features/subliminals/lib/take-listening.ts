import { useEffect, useRef, useState } from 'react';
import type { VoiceRecording } from '@shared/contract';
import { recordedClip } from '@web/lib/audio/speech/voice-clips';
import { monoWav } from '@web/lib/audio/voice-take';
import { toastProblem } from '@web/lib/toast-problem';
import { portalVisit } from '@web/lib/portal-presence';

export const RECORDING_UNPLAYABLE = 'The recording could not be played. Please try again.';
/** Listen refused by the browser all the same, though its player was started inside the press (decisions 075, 080). */
export const LISTEN_REFUSED = 'Your browser did not let the recording play. Press Listen to try again.';

/** A kept take being listened to: its player and the object URL of the clip it plays, once it has one. */
interface Playback {
  audio: HTMLAudioElement;
  url: string | null;
}

/** Stops a playback and frees its clip. */
function release(playback: Playback | null) {
  if (!playback) return;
  playback.audio.onended = null;
  playback.audio.pause();
  if (playback.url) URL.revokeObjectURL(playback.url);
}

/**
 * Listening to one's kept recordings, one at a time (docs/product/screens.md#spoken-affirmations): `listening` is the
 * take that plays, `listen` plays a take (or stops it, when it is the one playing), `stop` stops whatever plays.
 * Leaving the component that holds it stops it too. Shared by the Pro panel and the recordings kept after a downgrade.
 */
export function useTakeListening() {
  const [listening, setListening] = useState<number | null>(null);
  const player = useRef<Playback | null>(null);
  // Counts listenings asked for: a clip that arrives after another Listen, a Stop or leaving is dropped.
  const listenings = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      release(player.current);
      player.current = null;
    };
  }, []);

  function stop() {
    listenings.current++;
    release(player.current);
    player.current = null;
    setListening(null);
  }

  /**
   * Plays a kept take as the session speaks it: the same levelled clip (decoded once, shared with the
   * session), not the file as it was kept, so a take kept before levelling sounds here as it will there.
   */
  function listen(take: VoiceRecording) {
    const playing = listening === take.id;
    stop();
    if (playing) return;
    const asked = ++listenings.current;
    // A sign-out while the clip is fetched plays nothing (decision 085).
    const visit = portalVisit();
    setListening(take.id);
    // The player is made and started inside the press: Safari lets an element play later, when its clip is at
    // hand, only if it was played inside one (decision 080). Without a clip yet it plays nothing.
    const audio = new Audio();
    audio.play().catch(() => undefined);
    const playback: Playback = { audio, url: null };
    player.current = playback;
    recordedClip(take).then(
      (clip) => {
        if (asked !== listenings.current || !mounted.current) return;
        if (visit.left) return stop();
        playback.url = URL.createObjectURL(monoWav(clip.samples, clip.sampleRate));
        audio.src = playback.url;
        audio.onended = () => {
          if (player.current === playback) stop();
        };
        audio.play().catch((error: unknown) => {
          // Stopped before it began (Stop, another Listen, leaving): the abort that caused says nothing.
          if (player.current !== playback) return;
          stop();
          const refused = error instanceof DOMException && error.name === 'NotAllowedError';
          toastProblem(refused ? LISTEN_REFUSED : RECORDING_UNPLAYABLE);
        });
      },
      () => {
        if (asked !== listenings.current || !mounted.current) return;
        stop();
        toastProblem(RECORDING_UNPLAYABLE);
      },
    );
  }

  return { listening, listen, stop };
}
