import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Mic, Square, Trash2 } from 'lucide-react';
import type { VoiceRecording } from '@shared/contract';
import { VOICE_RECORDINGS } from '@shared/contract/portal-plain';
import { Button } from '@web/components/ui/button';
import { ConfirmDeleteDialog } from '@web/components/ui/confirm-delete';
import { QueryState } from '@web/components/ui/query-state';
import { decodeToTake, startMicrophoneTake, type MicrophoneTake } from '@web/lib/audio/microphone';
import { formatClock } from '@web/lib/audio/mixer';
import { levelTake, monoWav, trimSilence } from '@web/lib/audio/voice-take';
import { useTakeListening } from '../lib/take-listening';
import { ListenButton } from './listen-button';
import { deleteVoiceRecording, ownVoiceQuery, uploadVoiceTake, useOwnVoiceChange } from '../api/own-voice';
import { toastProblem } from '@web/lib/toast-problem';
import { keyboardToNeighbourOnceGone } from '@web/lib/keyboard-after-removal';

export const NOTHING_HEARD = 'Nothing was heard. Check that your microphone is on, then record again.';
const EMPTY_PLAYLIST = 'Add messages to the playlist to record them.';
export const RECORDING_UNREADABLE = 'The recording could not be read. Please record again.';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Recording {
  text: string;
  take: MicrophoneTake;
}

/** Milliseconds since `from` (null: not running), ticking: what the take's clock shows. */
function useElapsed(from: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (from === null) return;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [from]);
  return from === null ? 0 : Math.max(0, now - from);
}

/**
 * The person's own voice for the spoken affirmations (Pro; docs/product/screens.md#spoken-affirmations):
 * each message of the playlist recorded once with the microphone, kept on the server, listened to,
 * recorded again or deleted. `onChanged` runs after a recording is kept or deleted.
 */
export function OwnVoice({ texts, onChanged }: { texts: readonly string[]; onChanged(): void }) {
  const query = useQuery(ownVoiceQuery());
  const change = useOwnVoiceChange();
  const [recording, setRecording] = useState<Recording | null>(null);
  const [saving, setSaving] = useState<string | null>(null);
  /**
   * The message whose take waits for the microphone to open (the browser's permission prompt, getUserMedia): its
   * Record waits (busy) and a second press opens nothing. A ref too, read in the press itself: two presses may come
   * before a render.
   */
  const [opening, setOpening] = useState<string | null>(null);
  const openingNow = useRef(false);
  /**
   * The take whose Delete was pressed, asked about before it goes, with that button: a mis-press would lose a take
   * (docs/decisions/144-an-undo-that-fails-comes-back.md). The dialog's Delete waits while the call runs.
   */
  const [asking, setAsking] = useState<{ take: VoiceRecording; control: HTMLElement } | null>(null);
  const { listening, listen, stop: stopListening } = useTakeListening();
  const elapsed = useElapsed(recording?.take.startedAt ?? null);
  const byText = new Map((query.data?.recordings ?? []).map((take) => [take.text, take]));
  const recordedCount = texts.filter((text) => byText.has(text.trim())).length;
  // Recordings of texts the playlist no longer holds (another playlist's, or an edited message's).
  const inPlaylist = new Set(texts.map((text) => text.trim()));
  const others = (query.data?.recordings ?? []).filter((take) => !inPlaylist.has(take.text));
  const busy = recording !== null || saving !== null || opening !== null;

  // Leaving the panel ends a take (it is not kept), and any listening (useTakeListening).
  const mounted = useRef(true);
  const ongoing = useRef<MicrophoneTake | null>(null);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      ongoing.current?.stop();
    };
  }, []);

  async function keep(text: string, recorded: Blob) {
    setSaving(text);
    try {
      let clip;
      try {
        clip = await decodeToTake(recorded);
      } catch {
        toastProblem(RECORDING_UNREADABLE);
        return;
      }
      const words = trimSilence(clip.samples, clip.sampleRate);
      if (words.length < (VOICE_RECORDINGS.minMilliseconds / 1000) * clip.sampleRate) {
        toastProblem(NOTHING_HEARD);
        return;
      }
      const longest = VOICE_RECORDINGS.maxSeconds * clip.sampleRate;
      // Levelled, so every message of the playlist is spoken as loud as the others.
      const wav = monoWav(levelTake(words.subarray(0, longest), clip.sampleRate), clip.sampleRate);
      await change(() => uploadVoiceTake(text, wav), 'Recording saved.', { key: `record ${text}` });
      onChanged();
    } catch {
      // Said by the change's toast; the person can record again.
    } finally {
      setSaving(null);
    }
  }

  async function record(text: string) {
    if (openingNow.current) return;
    openingNow.current = true;
    setOpening(text);
    stopListening();
    let take: MicrophoneTake;
    try {
      take = await startMicrophoneTake(VOICE_RECORDINGS.maxSeconds * 1000);
    } catch (error) {
      toastProblem((error as Error).message);
      return;
    } finally {
      openingNow.current = false;
      if (mounted.current) setOpening(null);
    }
    if (!mounted.current) return take.stop();
    ongoing.current = take;
    setRecording({ text, take });
    let recorded: Blob;
    try {
      recorded = await take.recorded;
    } catch (error) {
      if (mounted.current) toastProblem((error as Error).message);
      return;
    } finally {
      ongoing.current = null;
      if (mounted.current) setRecording(null);
    }
    if (mounted.current) await keep(text, recorded);
  }

  /** Confirmed: failed, the change's toast says so and the dialog stays, to try again or cancel. */
  async function remove(id: number, control: HTMLElement) {
    if (listening === id) stopListening();
    // The keyboard on Delete goes, once the take's buttons have, to the message's Record, its row staying; a row of
    // a message not in the playlist goes whole, and the keyboard to the Delete of the row in its place (decision 113).
    const moveKeyboard = keyboardToNeighbourOnceGone(control, '[data-delete-take]', '[data-record-take]');
    await change(() => deleteVoiceRecording(id), 'Recording deleted.', { key: `delete ${id}` });
    moveKeyboard();
    onChanged();
  }

  /** Listen to a kept take, and delete it. */
  const takeButtons = (take: VoiceRecording, saving: boolean) => (
    <>
      <ListenButton take={take} playing={listening === take.id} onPress={() => listen(take)} />
      <Button
        size="sm"
        variant="ghost"
        // Unavailable while the row's new take is saved.
        disabled={saving}
        onClick={(event) => setAsking({ take, control: event.currentTarget })}
        data-delete-take
        aria-label={`Delete the recording of “${take.text}”`}
      >
        <Trash2 aria-hidden className="h-4 w-4" /> Delete
      </Button>
    </>
  );

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-fg-muted">
        Record each message in your own voice: it is kept privately with your account and spoken in place of the
        synthesised voice. Messages you have not recorded are left out. A take lasts up to {VOICE_RECORDINGS.maxSeconds}{' '}
        seconds; the silence before and after it is cut. Your browser asks to use the microphone the first time.
      </p>
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={texts.length === 0 && others.length === 0}
        emptyText={EMPTY_PLAYLIST}
        onRetry={() => void query.refetch()}
      >
        {texts.length > 0 ? (
          <p className="text-sm font-medium" aria-live="polite">
            {recordedCount} of {texts.length} {texts.length === 1 ? 'message' : 'messages'} recorded
          </p>
        ) : (
          <p className="text-sm text-fg-muted">{EMPTY_PLAYLIST}</p>
        )}
        <ul className="flex flex-col gap-2">
          {texts.map((text) => {
            const take = byText.get(text.trim());
            const mine = recording?.text === text;
            const status = mine
              ? `Recording… ${formatClock(elapsed / 1000)} of ${formatClock(VOICE_RECORDINGS.maxSeconds)}`
              : opening === text
                ? 'Waiting for the microphone…'
                : saving === text
                  ? 'Saving…'
                  : take
                    ? `Recorded, ${seconds(take.duration_ms)}`
                    : 'Not recorded yet';
            return (
              <li
                key={text}
                className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-2xl border border-line bg-surface p-3"
              >
                <div className="min-w-0 flex-1 basis-48">
                  <p className="break-words text-sm">{text}</p>
                  <p className={mine ? 'text-xs font-medium text-accent' : 'text-xs text-fg-muted'}>{status}</p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {/* One button that records and stops, so focus stays on it through a take. */}
                  <Button
                    size="sm"
                    variant={take && !mine ? 'secondary' : 'primary'}
                    // The row whose microphone opens or whose take is saved keeps its button enabled (a disabled one
                    // would drop the focus), busy; another take under way leaves the others unavailable.
                    disabled={busy && !mine && saving !== text && opening !== text}
                    busy={saving === text || opening === text}
                    data-record-take
                    onClick={() => {
                      if (mine) recording.take.stop();
                      else void record(text);
                    }}
                    aria-label={`${mine ? 'Stop recording' : take ? 'Record again' : 'Record'} “${text}”`}
                  >
                    {mine ? <Square aria-hidden className="h-4 w-4" /> : <Mic aria-hidden className="h-4 w-4" />}{' '}
                    {mine ? 'Stop' : take ? 'Record again' : 'Record'}
                  </Button>
                  {take && !mine ? takeButtons(take, saving === text) : null}
                </div>
              </li>
            );
          })}
        </ul>
        {others.length > 0 ? (
          <details className="rounded-2xl border border-line p-3">
            <summary className="cursor-pointer text-sm font-medium">
              {others.length} {others.length === 1 ? 'recording' : 'recordings'} of messages not in this playlist
            </summary>
            <ul className="mt-3 flex flex-col gap-2">
              {others.map((take) => (
                <li key={take.id} className="flex flex-wrap items-center gap-x-3 gap-y-2">
                  <div className="min-w-0 flex-1 basis-48">
                    <p className="break-words text-sm">{take.text}</p>
                    <p className="text-xs text-fg-muted">Recorded, {seconds(take.duration_ms)}</p>
                  </div>
                  <div className="flex flex-wrap gap-2">{takeButtons(take, false)}</div>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {query.data && query.data.recordings.length > 0 ? (
          <p className="text-xs text-fg-muted">
            You keep {query.data.recordings.length} of {query.data.max_recordings} recordings.
          </p>
        ) : null}
      </QueryState>
      <ConfirmDeleteDialog
        asking={
          asking && {
            title: (
              <>
                Delete the recording of “<bdi>{asking.take.text}</bdi>”?
              </>
            ),
            description: 'It is removed from your account. You can record the message again.',
            onConfirm: () => remove(asking.take.id, asking.control),
          }
        }
        onClose={() => setAsking(null)}
      />
    </div>
  );
}
