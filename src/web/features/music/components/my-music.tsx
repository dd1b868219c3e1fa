import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { formatBytes } from '@shared/bytes';
import { typedTextRefusal, isolated } from '@shared/contract/plain';
import { OWN_MUSIC, trackNameOfFile } from '@shared/contract/portal-plain';
import { PlanLock } from '@web/components/plan-lock';
import { Button } from '@web/components/ui/button';
import { CharacterCount, characterLimit } from '@web/components/ui/character-count';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { FieldError, Input } from '@web/components/ui/input';
import { QueryState } from '@web/components/ui/query-state';
import { soundEngine } from '@web/lib/audio/app-engine';
import { describeError, endedTheSession } from '@web/lib/change';
import { usePlan } from '@web/lib/plan';
import { PlanReadFailed } from '@web/components/plan-read-failed';
import { deleteOwnTrack, uploadOwnTrack, useOwnMusicChange } from '../api/own-music';
import { ownMusicQuery } from '@web/lib/audio/track-lists';
import type { TrackStatus } from '../hooks/use-track-player';
import { AudioCard } from './audio-list';

export const ownTrackKey = (id: number) => `own:${id}`;

/**
 * Deletes a track; playing, it stops, as its file is gone: it would otherwise play on from memory, and a
 * subliminal saved meanwhile would name a track the account no longer has (which the server refuses).
 */
async function deleteTrack(id: number) {
  await deleteOwnTrack(id);
  const layer = soundEngine.getState().layers.find((candidate) => candidate.id === 'track');
  if (layer?.source.kind === 'track' && layer.source.key === ownTrackKey(id)) soundEngine.removeLayer('track');
}

export const MY_MUSIC_EMPTY = 'No music of your own yet. Upload a track to play it here, alone or under other layers.';

/** Picks an audio file and sends it, with its progress; the file stays chosen when the server refuses it. */
function UploadForm() {
  const change = useOwnMusicChange();
  const fileId = useId();
  const nameId = useId();
  const form = useRef<HTMLFormElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const fileField = useRef<HTMLInputElement>(null);
  const uploadButton = useRef<HTMLButtonElement>(null);
  /** Set when an upload sent from the keyboard on Upload is kept: the file field takes the keyboard once enabled. */
  const keyboardToFile = useRef(false);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  // Why the server refused the chosen file: kept under it after the toast has gone, until another is picked.
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const tooLarge = file !== null && file.size > OWN_MUSIC.maxFileBytes;
  const problem = tooLarge
    ? `This file is ${formatBytes(file.size)}; a track may be up to ${formatBytes(OWN_MUSIC.maxFileBytes)}.`
    : refusal;
  // Decision 063's rule, said at the name before sending: for the name typed, or the file's when none is (the
  // server names the track after its file, less the extension).
  const fileTrackName = file ? trackNameOfFile(file.name) : '';
  const nameRefused = typedTextRefusal(name.trim() ? name : fileTrackName);
  // The name typed, counted as the server counts it (an emoji is one character; maxLength counted two); the file's
  // name, when none is typed, the server cuts to the limit itself.
  const nameLimit = characterLimit(nameId, name, OWN_MUSIC.nameMax);

  // In the commit that enables the file field again, not an effect after it: a key pressed in between went nowhere.
  useLayoutEffect(() => {
    if (progress !== null || !keyboardToFile.current) return;
    keyboardToFile.current = false;
    fileField.current?.focus();
  }, [progress]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file || tooLarge) return;
    if (nameRefused || nameLimit.over) return nameField.current?.focus();
    setProgress(0);
    try {
      await change(
        () => uploadOwnTrack(file, name, setProgress),
        (track) => `Added ${isolated(track.name)}.`,
        { key: 'upload' },
      );
      setFile(null);
      setName('');
      form.current?.reset();
      // Upload, busy meanwhile with the keyboard on it, is unavailable with no file: the keyboard goes to the file
      // field, where the next track is chosen.
      keyboardToFile.current = document.activeElement === uploadButton.current;
    } catch (error) {
      // Said by the change's toast too; the file and name stay for another try. A session ended meanwhile
      // has said so already, on its way to login.
      if (!endedTheSession(error)) setRefusal(describeError(error));
    } finally {
      setProgress(null);
    }
  }

  return (
    // From sm a grid of three rows, each field's label, control and hint in one (a subgrid): the file's hint under
    // its picker lined the row up by its bottom, "Audio file" 14 px above "Name" and the controls by neither edge.
    <form
      ref={form}
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-3 sm:grid sm:grid-cols-[minmax(0,1fr)_14rem_auto] sm:grid-rows-[auto_auto_auto] sm:gap-x-3 sm:gap-y-1"
    >
      <div className="flex min-w-0 flex-col gap-1 sm:row-span-3 sm:grid sm:grid-rows-subgrid">
        <label htmlFor={fileId} className="text-sm font-medium">
          Audio file
        </label>
        <input
          ref={fileField}
          id={fileId}
          type="file"
          accept="audio/*,.mp3,.ogg,.wav,.m4a,.aac,.flac"
          disabled={progress !== null}
          onChange={(event) => (setFile(event.target.files?.[0] ?? null), setRefusal(undefined))}
          aria-describedby={`${fileId}-hint`}
          aria-invalid={problem ? true : undefined}
          // Its button 44 px tall on a touch screen, as the name field and Upload beside it.
          className="text-sm file:mr-3 file:rounded-full file:border-0 file:bg-black/5 file:px-4 file:py-2.5 sm:self-center file:text-sm file:font-medium pointer-coarse:file:py-3 dark:file:bg-white/10"
        />
        <p id={`${fileId}-hint`} className={problem ? 'text-sm text-danger' : 'text-xs text-fg-muted'}>
          {problem ?? `MP3, OGG, WAV, M4A/AAC or FLAC, up to ${formatBytes(OWN_MUSIC.maxFileBytes)}.`}
        </p>
      </div>
      <div className="flex flex-col gap-1 sm:row-span-3 sm:grid sm:grid-rows-subgrid">
        <label htmlFor={nameId} className="text-sm font-medium">
          Name <span className="font-normal text-fg-muted">(optional)</span>
        </label>
        <Input
          ref={nameField}
          id={nameId}
          value={name}
          placeholder={file ? fileTrackName : 'The file’s name'}
          disabled={progress !== null}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={nameRefused || nameLimit.over ? true : undefined}
          aria-describedby={
            [nameRefused ? `${nameId}-error` : '', nameLimit.describedBy ?? ''].filter(Boolean).join(' ') || undefined
          }
          // 44 px on a touch screen, as every button there (styles.css, `.btn`).
          className="h-10 pointer-coarse:h-11"
        />
        <div className="flex flex-col gap-1 empty:hidden">
          <FieldError id={nameId} error={nameRefused} announce />
          <CharacterCount id={nameId} limit={nameLimit} max={OWN_MUSIC.nameMax} />
        </div>
      </div>
      <Button
        type="submit"
        className="min-h-10 shrink-0 pointer-coarse:min-h-11 sm:col-start-3 sm:row-start-2 sm:self-center"
        ref={uploadButton}
        busy={progress !== null}
        // Unavailable, not busy, with no file to send.
        disabled={progress === null && (!file || tooLarge)}
      >
        <Upload aria-hidden className="h-4 w-4" />
        {progress === null ? 'Upload' : `Uploading ${Math.round(progress * 100)}%`}
      </Button>
    </form>
  );
}

/**
 * One's own music (Pro): upload, play on the track layer like the library's tracks, delete. After a
 * downgrade what is there stays playable and deletable; only adding needs Pro.
 */
export function MyMusic({
  statusOf,
  onToggle,
}: {
  statusOf(key: string): TrackStatus;
  onToggle(key: string, title: string, url: string): void;
}) {
  // Neither the upload nor its lock until the plan is read: the server refuses an upload below Pro (decision 124).
  const canAdd = usePlan().has('ownMusic');
  const query = useQuery(ownMusicQuery());
  const change = useOwnMusicChange();
  const music = query.data;
  const hasTracks = (music?.tracks.length ?? 0) > 0;
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  // The last track deleted, the keyboard goes to the file field that uploads the next one or, where uploading is not
  // offered (after a downgrade), to the list's heading (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const keyboardWhenNoneLeft = () =>
    section.current?.querySelector<HTMLElement>('input[type="file"]') ?? heading.current;

  return (
    <section ref={section} aria-labelledby="my-music-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 ref={heading} id="my-music-heading" tabIndex={-1} className="card-heading outline-none">
          My music
        </h2>
        {canAdd === false ? <PlanLock feature="ownMusic" what="Adding your own music" label="Your own music" /> : null}
      </div>
      {/* The screen's message of a plan that could not be read (decision 132); the sound layers say their own (140). */}
      <PlanReadFailed feature="ownMusic" detail="Adding your own music shows once it is read.">
        {canAdd ? (
          <>
            <p className="text-sm text-fg-muted">
              Your own tracks, kept privately with your account. They loop like the library’s and mix with the other
              layers.
              {music
                ? ` ${music.tracks.length} of ${music.max_tracks} tracks, ${formatBytes(music.used_bytes)} of ${formatBytes(music.max_bytes)} used.`
                : null}
            </p>
            <UploadForm />
          </>
        ) : canAdd === undefined ? null : hasTracks ? (
          // Left from a Pro plan: said to be kept, so a downgrade does not read as a loss (decisions §8).
          <p className="text-sm text-fg-muted">Your tracks are kept: play them or delete them here.</p>
        ) : (
          <p className="text-sm text-fg-muted">
            Upload your own music and play it alone or under your affirmations, binaural beats and noise.
          </p>
        )}
      </PlanReadFailed>
      {canAdd || hasTracks ? (
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={!hasTracks}
          emptyText={MY_MUSIC_EMPTY}
          onRetry={() => void query.refetch()}
        >
          <ul className="grid gap-3 lg:grid-cols-2">
            {music?.tracks.map((track) => (
              <AudioCard
                key={track.id}
                item={{ name: track.name, description: formatBytes(track.bytes) }}
                status={statusOf(ownTrackKey(track.id))}
                onToggle={() => onToggle(ownTrackKey(track.id), track.name, track.url)}
                actions={
                  <ConfirmDelete
                    label={`Delete ${track.name}`}
                    title={
                      <>
                        Delete "<bdi>{track.name}</bdi>"?
                      </>
                    }
                    description="The track and its file are removed from your account."
                    onConfirm={() =>
                      change(() => deleteTrack(track.id), `Deleted ${isolated(track.name)}.`, {
                        key: `delete ${track.id}`,
                      })
                    }
                    keyboardWhenNoneLeft={keyboardWhenNoneLeft}
                  />
                }
              />
            ))}
          </ul>
        </QueryState>
      ) : null}
    </section>
  );
}
