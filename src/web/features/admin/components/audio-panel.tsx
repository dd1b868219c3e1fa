import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Music } from 'lucide-react';
import type { z } from 'zod';
import type { AdminAudioItem, AudioItemUpdate, AudioKind } from '@shared/contract';
import {
  AUDIO_NAME_MAX,
  audioTextFieldsSchema,
  DESCRIPTION_MAX,
  descriptionField,
  UPLOAD_LIMITS,
} from '@shared/contract/admin';
import { AUDIO_KINDS, AUDIO_LIBRARIES } from '@shared/contract/content';
import { Button } from '@web/components/ui/button';
import { SubmitButton } from '@web/components/ui/submit-button';
import { Field, Textarea } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { refusedAsChangedMeanwhile } from '@web/lib/change';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { clsx } from 'clsx';
import { adminAudioQuery, deleteAudioItem, updateAudioItem, uploadAudioItem, useAudioChange } from '../api/audio';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { FileField } from './file-field';
import { InlineEdit } from '@web/components/ui/inline-edit';
import { QueryState } from '@web/components/ui/query-state';
import { formatSize, panelClass, UploadProgress } from './states';
import { isolated } from '@shared/contract/plain';
import { useFocusFirstError } from '@web/lib/form-field';

const AUDIO_ACCEPT = '.mp3,.ogg,.oga,.wav,.m4a,.aac,.flac,audio/*';
// The server's own fields, so what it refuses (a bell pasted into a name or a description) is said at the field.
const formSchema = audioTextFieldsSchema.extend({ description: descriptionField() });
type FormValues = z.infer<typeof formSchema>;

function UploadAudioForm({ kind }: { kind: AudioKind }) {
  const change = useAudioChange(kind);
  const [audio, setAudio] = useState<File | undefined>();
  const [cover, setCover] = useState<File | undefined>();
  const [fileErrors, setFileErrors] = useState<{ audio_file?: string | undefined; cover_image?: string | undefined }>(
    {},
  );
  const [progress, setProgress] = useState<number | null>(null);
  const [formKey, setFormKey] = useState(0);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', description: '' },
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();

  const submit = form.handleSubmit(async (values) => {
    const problems = {
      audio_file: !audio
        ? 'Choose an audio file.'
        : audio.size > UPLOAD_LIMITS.audioBytes
          ? `The file is larger than ${formatSize(UPLOAD_LIMITS.audioBytes)}.`
          : undefined,
      cover_image:
        cover && cover.size > UPLOAD_LIMITS.coverBytes
          ? `The image is larger than ${formatSize(UPLOAD_LIMITS.coverBytes)}.`
          : undefined,
    };
    setFileErrors(problems);
    if (problems.audio_file || problems.cover_image || !audio) return focusFirstError();
    const body = new FormData();
    body.append('name', values.name);
    body.append('description', values.description);
    body.append('audio_file', audio);
    if (cover) body.append('cover_image', cover);
    setProgress(0);
    try {
      await change(
        () => uploadAudioItem(kind, body, setProgress),
        (item) => `Uploaded ${isolated(item.name)}.`,
        { key: 'upload' },
      );
      form.reset();
      setAudio(undefined);
      setCover(undefined);
      setFormKey((k) => k + 1);
    } catch (error) {
      showServerFieldErrors(error, ['name'], form.setError, focusFirstError);
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      setFileErrors({ audio_file: fields.audio_file, cover_image: fields.cover_image });
      if (fields.audio_file || fields.cover_image) focusFirstError();
    } finally {
      setProgress(null);
    }
  }, focusFirstError);

  const busy = progress !== null;
  return (
    <form
      key={formKey}
      ref={formRef}
      onSubmit={(event) => void submit(event)}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
    >
      <Field
        id="audio-name"
        label="Name"
        disabled={busy}
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
      <FileField
        id="audio-file"
        label="Audio file"
        accept={AUDIO_ACCEPT}
        hint={`MP3, OGG, WAV, M4A/AAC or FLAC · up to ${formatSize(UPLOAD_LIMITS.audioBytes)}`}
        disabled={busy}
        error={fileErrors.audio_file}
        onChange={(event) => setAudio(event.target.files?.[0])}
      />
      <Textarea
        id="audio-description"
        label="Description"
        disabled={busy}
        error={form.formState.errors.description?.message}
        {...form.register('description')}
      />
      <FileField
        id="audio-cover"
        label="Cover image (optional)"
        accept="image/*"
        hint="Any common image; stored as a 512 × 512 WebP"
        disabled={busy}
        error={fileErrors.cover_image}
        onChange={(event) => setCover(event.target.files?.[0])}
      />
      <div className="flex flex-col gap-3 sm:col-span-2">
        {busy ? (
          <UploadProgress fraction={progress} label={audio ? `Uploading ${isolated(audio.name)}` : 'Uploading audio'} />
        ) : null}
        <SubmitButton pending={busy} pendingLabel="Uploading" className="self-start">
          Upload to {AUDIO_LIBRARIES[kind].title}
        </SubmitButton>
      </div>
    </form>
  );
}

const coverClass = 'h-16 w-16 shrink-0 rounded-xl object-cover sm:row-span-2';

function AudioRow({
  item,
  keyboardWhenNoneLeft,
}: {
  item: AdminAudioItem;
  /** Where the keyboard goes from Delete once this was the library's last item. */
  keyboardWhenNoneLeft(): HTMLElement | null;
}) {
  const change = useAudioChange(item.kind);
  // Each edit names the text it began from: one begun from a text changed meanwhile is said under its field.
  const save = (update: AudioItemUpdate, message: string) =>
    change(() => updateAudioItem(item.kind, item.id, update), message, {
      saidInPlace: refusedAsChangedMeanwhile,
      key: `edit ${item.id} ${Object.keys(update).join()}`,
    });
  return (
    // The cover, the name and Delete make the first line; the description and the player go under the name, and on a
    // phone under the cover too, across the row: beside it they had a column of some 140 px at 390.
    <li className="grid grid-cols-[auto_minmax(0,1fr)_auto] gap-x-4 gap-y-1 py-3">
      {item.cover_image ? (
        <img src={item.cover_image} alt="" className={coverClass} loading="lazy" />
      ) : (
        <div className={clsx(coverClass, 'flex items-center justify-center bg-black/5 dark:bg-white/10')}>
          <Music aria-hidden className="h-6 w-6 text-fg-muted" />
        </div>
      )}
      <div className="min-w-0 self-center sm:self-start">
        <InlineEdit
          value={item.name}
          label={`name of ${item.name}`}
          typed
          className="font-medium"
          max={AUDIO_NAME_MAX}
          onSave={(name, from) => save({ name, previous_name: from }, `Renamed to ${isolated(name)}.`)}
        />
      </div>
      {/* On the name's line, centred on it as the other staff lists' actions are. */}
      <div className="self-center sm:self-start">
        <ConfirmDelete
          label={`Delete ${item.name}`}
          title={
            <>
              Delete "<bdi>{item.name}</bdi>"?
            </>
          }
          description="The audio file and its cover are removed; members no longer see it."
          onConfirm={() =>
            change(() => deleteAudioItem(item.kind, item.id), `Deleted ${isolated(item.name)}.`, {
              key: `delete ${item.id}`,
            })
          }
          keyboardWhenNoneLeft={keyboardWhenNoneLeft}
        />
      </div>
      <div className="col-span-3 min-w-0 sm:col-span-1 sm:col-start-2">
        <InlineEdit
          value={item.description}
          placeholder="No description"
          required={false}
          typed
          label={`description of ${item.name}`}
          className={clsx('text-sm text-fg-muted', !item.description && 'italic')}
          max={DESCRIPTION_MAX}
          onSave={(description, from) => save({ description, previous_description: from }, 'Description saved.')}
        />
        <audio
          controls
          preload="none"
          src={item.audio_file}
          className="mt-1 h-8 w-full max-w-sm"
          aria-label={`Play ${item.name}`}
        />
      </div>
    </li>
  );
}

/** The three audio libraries: upload with progress, edit name and description, delete. */
export function AudioPanel() {
  const [kind, setKind] = useState<AudioKind>('selfeggio');
  const query = useQuery(adminAudioQuery(kind));
  const items = query.data ?? [];
  const heading = useRef<HTMLHeadingElement>(null);
  // The last one deleted, the keyboard goes to the list's heading
  // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const keyboardWhenNoneLeft = () => heading.current;
  return (
    <div className="flex flex-col gap-6">
      <div role="group" aria-label="Library" className="flex gap-2">
        {AUDIO_KINDS.map((k) => (
          <Button
            key={k}
            variant={k === kind ? 'primary' : 'secondary'}
            size="sm"
            aria-pressed={k === kind}
            onClick={() => setKind(k)}
          >
            {AUDIO_LIBRARIES[k].title}
          </Button>
        ))}
      </div>
      <section className={panelClass} aria-labelledby="upload-audio-heading">
        <h2 id="upload-audio-heading" className="mb-4 card-heading">
          Add to {AUDIO_LIBRARIES[kind].title}
        </h2>
        <UploadAudioForm key={kind} kind={kind} />
      </section>
      <section className={panelClass} aria-labelledby="audio-heading">
        <h2 ref={heading} id="audio-heading" tabIndex={-1} className="mb-2 card-heading outline-none">
          {AUDIO_LIBRARIES[kind].title} library
        </h2>
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={items.length === 0}
          emptyText={`No ${AUDIO_LIBRARIES[kind].title.toLowerCase()} audio yet.`}
          onRetry={() => void query.refetch()}
        >
          <ul className="divide-y divide-line">
            {items.map((item) => (
              <AudioRow key={item.id} item={item} keyboardWhenNoneLeft={keyboardWhenNoneLeft} />
            ))}
          </ul>
        </QueryState>
      </section>
    </div>
  );
}
