import type { MyVoice, VoiceRecording } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { OWN_VOICE } from '@shared/contract/portal-plain';
import { apiRequest } from '@web/lib/api-client';
import { decodeToTake } from '../microphone';
import { levelTake } from '../voice-take';
import type { SpokenClip } from '../voice-loop';
import { speak } from './speech';

// The clips of the spoken affirmations (docs/product/screens.md#spoken-affirmations): each message
// synthesised by eSpeak NG in a chosen voice, or, for "my own voice", the person's recording of it.

const takes = new Map<string, Promise<SpokenClip>>();
const MAX_TAKES = 300;

/**
 * A recording decoded once per take (a new take of the text is another key), at the one speech level
 * of every take: those kept before takes were levelled are levelled here, and a levelled one comes
 * back as it was. The session speaks this clip, and the own-voice panel's Listen plays it, so both
 * sound the same.
 */
export function recordedClip(recording: VoiceRecording): Promise<SpokenClip> {
  const key = `${recording.id}|${recording.created_at}`;
  let clip = takes.get(key);
  if (!clip) {
    clip = fetch(recording.url).then(async (response) => {
      if (!response.ok) throw new Error(`The recording answered ${response.status}.`);
      const take = await decodeToTake(await response.arrayBuffer());
      return { samples: levelTake(take.samples, take.sampleRate), sampleRate: take.sampleRate };
    });
    clip.catch(() => takes.delete(key));
    takes.set(key, clip);
    if (takes.size > MAX_TAKES) takes.delete(takes.keys().next().value!);
  }
  return clip;
}

/**
 * One clip per text to speak, in order, telling `onClip` after each. In the own voice, only the texts
 * with a recording are spoken (their recordings are read now, their links being short-lived).
 */
export async function voiceClips(
  texts: readonly string[],
  { voice, rate }: { voice: string; rate: number },
  onClip?: (done: number, total: number) => void,
): Promise<SpokenClip[]> {
  const clips: SpokenClip[] = [];
  if (voice === OWN_VOICE) {
    const { recordings } = await apiRequest<MyVoice>(API.myVoice);
    // The server keeps a text trimmed, as it keeps messages.
    const byText = new Map(recordings.map((recording) => [recording.text, recording]));
    const recorded = texts.flatMap((text) => byText.get(text.trim()) ?? []);
    for (const recording of recorded) {
      clips.push(await recordedClip(recording));
      onClip?.(clips.length, recorded.length);
    }
    return clips;
  }
  for (const text of texts) {
    clips.push(await speak(text, voice, rate));
    onClip?.(clips.length, texts.length);
  }
  return clips;
}
