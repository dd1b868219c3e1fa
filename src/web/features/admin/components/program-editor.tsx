import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm, useWatch, type FieldError, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Plus, Trash2, X } from 'lucide-react';
import { z } from 'zod';
import type { AdminProgram, AdminProgramWrite, ProgramLayerWrite } from '@shared/contract';
import { AUDIO_KINDS, AUDIO_LIBRARIES } from '@shared/contract/content';
import { maxElements } from '@shared/contract/drf-messages';
import { changedMeanwhileMessage } from '@shared/contract/portal-plain';
import {
  adminProgramWriteSchemaOf,
  daysFromDistinctDays,
  GUIDANCE_GOALS,
  NOISE_COLOURS,
  PROGRAM_DAY_LAYERS_MAX,
  PROGRAM_DAY_MINUTES,
  PROGRAM_DAYS_FROM_SAME_DAY,
  PROGRAM_DAYS_MAX,
  programDayWriteSchemaOf,
  type StoredProgramTexts,
  programWriteOf,
} from '@shared/contract/guidance';
import { Button } from '@web/components/ui/button';
import { DraftBack } from '@web/components/ui/draft-back';
import { SubmitButton } from '@web/components/ui/submit-button';
import { Field, FieldError as ErrorText, Textarea, describedBy } from '@web/components/ui/input';
import { MoveButtons } from '@web/components/ui/move-buttons';
import { useBottomChromePart } from '@web/lib/bottom-chrome';
import { describeError, failureOver, refusedAsChangedMeanwhile, toastFailure } from '@web/lib/change';
import { dropDraft, keepDraft, keptDraft, useKeepDraft } from '@web/lib/form-draft';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { programAsRead, useSaveProgram } from '../api/programs';
import { useUndoPlaces } from '../lib/undo-places';
import { panelClass } from './states';
import { isolated } from '@shared/contract/plain';
import { useFocusFirstError } from '@web/lib/form-field';
import { toastProblem } from '@web/lib/toast-problem';

// The form of one program (docs/product/guidance.md#staff-editing). It validates with the contract's
// schemas; only a day's messages differ: staff type them one per line, and the lines become the list.

const messageLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The form's rules, as the server's for a replace of `stored` (the program as last read or saved): its texts as they
 * are stored, one from before decision 063 too, are not refused; typed anew, they are
 * (docs/decisions/138-an-undo-hands-the-keyboard-back-once.md).
 */
const formSchemaOf = (stored?: StoredProgramTexts) => {
  const daySchema = programDayWriteSchemaOf(stored);
  return adminProgramWriteSchemaOf(stored).extend({
    days: z
      .array(daySchema.extend({ messages: z.string().transform(messageLines).pipe(daySchema.shape.messages) }))
      .min(1, { error: 'A program needs at least one day.' })
      .max(PROGRAM_DAYS_MAX, maxElements(PROGRAM_DAYS_MAX))
      .refine(daysFromDistinctDays, { error: PROGRAM_DAYS_FROM_SAME_DAY }),
  });
};
type FormSchema = ReturnType<typeof formSchemaOf>;
type FormInput = z.input<FormSchema>;
type FormOutput = z.output<FormSchema>;
type DayInput = FormInput['days'][number];
type Form = UseFormReturn<FormInput, unknown, FormOutput>;

const SERVER_FIELDS = ['slug', 'title', 'summary', 'goals', 'days'] as const;

const LAYER_KINDS = {
  track: 'Library track',
  binaural: 'Binaural beat',
  isochronic: 'Isochronic tone',
  noise: 'Noise',
} as const;
type LayerKind = keyof typeof LAYER_KINDS;

/** A new layer of a kind, at values that sound calm (decision 016's ranges). */
const newLayer = (kind: LayerKind): ProgramLayerWrite => {
  switch (kind) {
    case 'track':
      return { kind, audio_kind: 'selfeggio', name: '', gain: 0.5 };
    case 'binaural':
      return { kind, left_hz: 200, right_hz: 206, gain: 0.3 };
    case 'isochronic':
      return { kind, carrier_hz: 200, pulse_hz: 6, gain: 0.2 };
    case 'noise':
      return { kind, colour: 'pink', gain: 0.3 };
  }
};

const newDay = (): DayInput => ({ title: '', intro: '', minutes: 10, messages: '', layers: [], from_day: null });

export const emptyProgram = (): FormInput => ({ slug: '', title: '', summary: '', goals: [], days: [newDay()] });

/** The program as the form holds it: messages one per line, track layers without the library's id. */
export const programFormValues = (program: AdminProgram): FormInput => {
  const written = programWriteOf(program);
  return { ...written, days: written.days.map((day) => ({ ...day, messages: day.messages.join('\n') })) };
};

/**
 * The name the form keeps its draft under (lib/form-draft.ts, decision 068): a new program's, or an edit's of the
 * version it began from, so a draft of a program saved since (which the server would refuse to replace it) is not
 * given back over what was saved.
 */
export const programDraft = (program: AdminProgram | undefined) =>
  program ? `program.${program.slug}.${program.updated_at}` : 'program.new';

const isDayDraft = (day: unknown) => {
  if (!day || typeof day !== 'object') return false;
  const { title, intro, messages, layers } = day as Record<string, unknown>;
  return (
    typeof title === 'string' && typeof intro === 'string' && typeof messages === 'string' && Array.isArray(layers)
  );
};
/**
 * Kept with a draft whose save was refused as changed meanwhile: given back, the form says again that it was not
 * saved, where it said it before (docs/decisions/096-a-refused-save-keeps-its-draft-and-a-refused-record-stops.md).
 */
const REFUSED_AS_CHANGED = { refused_as_changed_meanwhile: true } as const;

/**
 * The form's values kept in its draft, if they are a program form's (the form checks the rest as it is sent), and
 * whether a save of them was refused as changed meanwhile.
 */
const programDraftOf = (kept: Record<string, unknown>): { values: FormInput; refused: boolean } | null => {
  const { refused_as_changed_meanwhile: refused, ...values } = kept;
  const { slug, title, summary, goals, days } = values;
  const isForm =
    typeof slug === 'string' &&
    typeof title === 'string' &&
    typeof summary === 'string' &&
    Array.isArray(goals) &&
    Array.isArray(days) &&
    days.length > 0 &&
    days.every(isDayDraft);
  return isForm ? { values: values as FormInput, refused: refused === true } : null;
};

/** Whether the form's values are the program as saved (or, new, an empty one): nothing to keep. */
const sameAs = (program: AdminProgram | undefined) => {
  const saved = JSON.stringify(program ? programFormValues(program) : emptyProgram());
  return (values: Partial<FormInput>) => JSON.stringify(values) === saved;
};

/**
 * Said in the Save bar when a save was refused as begun from a program saved since (in another tab, by another staff
 * member): the form keeps what was typed, as an inline edit does (decision 091).
 */
export const PROGRAM_CHANGED_MEANWHILE = `${changedMeanwhileMessage('program')} What you typed is still here: Save to put it in its place, or Show the saved program to keep that.`;

/** A slug from a title, for a new program whose slug staff have not typed. */
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');

/** An error of a field, or of the first item of a list field (a day's message lines). */
function messageOf(error: unknown, itemLabel?: string): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const direct = (error as FieldError).message ?? (error as { root?: FieldError }).root?.message;
  if (direct) return direct;
  for (const [key, value] of Object.entries(error)) {
    const nested = (value as FieldError | undefined)?.message;
    if (/^\d+$/.test(key) && nested) return itemLabel ? `${itemLabel} ${Number(key) + 1}: ${nested}` : nested;
  }
  return undefined;
}

function NumberField({
  form,
  name,
  id,
  label,
  step,
  min,
  max,
}: {
  form: Form;
  name: Parameters<Form['register']>[0];
  id: string;
  label: string;
  step?: number;
  min?: number;
  max?: number;
}) {
  const error = messageOf(form.getFieldState(name, form.formState).error);
  return (
    <Field
      id={id}
      label={label}
      type="number"
      inputMode="decimal"
      step={step}
      min={min}
      max={max}
      error={error}
      className="min-w-0"
      {...form.register(name, { valueAsNumber: true })}
    />
  );
}

const selectClass = 'input pr-8';

/** Said when an Undo would bring a day or a layer past its limit (decision 133). */
export const undoPastDaysLimit = (day: number) =>
  `Day ${day} cannot come back: the program already has ${PROGRAM_DAYS_MAX} days, the most it can hold.`;
export const undoPastLayersLimit = (layer: number, day: number) =>
  `Layer ${layer} cannot come back: day ${day} already has ${PROGRAM_DAY_LAYERS_MAX} layers, the most a day can hold.`;

/**
 * A removal's toast with "Undo" (docs/decisions/129-a-removed-day-comes-back-a-resend-names-both-mails-an-old-text-stays.md).
 * The toasts it offered go when its part of the form goes (the editor left, a day removed with its layers), or with
 * `dismiss`: an Undo whose place is gone would put nothing back. `refusal` says why the Undo cannot be done now (a
 * limit reached since): the press puts nothing back, an error toast says why, and the Undo stays offered, for room
 * made meanwhile (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
 */
function useUndoToasts() {
  const offered = useRef(new Set<string | number>());
  useEffect(() => {
    const toasts = offered.current;
    return () => toasts.forEach((id) => toast.dismiss(id));
  }, []);
  return {
    offer(message: string, undo: () => void, refusal: () => string | undefined) {
      const id = toast.success(message, {
        action: {
          label: 'Undo',
          onClick: (event) => {
            const refused = refusal();
            if (refused !== undefined) {
              // The toast stays (sonner closes one whose action does not prevent it): room made, Undo works.
              event.preventDefault();
              toastProblem(refused);
              return;
            }
            // The keyboard is out of the toaster by now (app/themed-toaster.tsx): what comes back takes it.
            undo();
          },
        },
        onDismiss: () => offered.current.delete(id),
        onAutoClose: () => offered.current.delete(id),
      });
      offered.current.add(id);
    },
    dismiss() {
      offered.current.forEach((id) => toast.dismiss(id));
      offered.current.clear();
    },
  };
}

function LayerFields({
  form,
  dayIndex,
  layerIndex,
  onKind,
  onRemove,
}: {
  form: Form;
  dayIndex: number;
  layerIndex: number;
  onKind: (kind: LayerKind) => void;
  onRemove: () => void;
}) {
  const base = `days.${dayIndex}.layers.${layerIndex}` as const;
  const id = `day-${dayIndex}-layer-${layerIndex}`;
  const kind = useWatch({ control: form.control, name: `${base}.kind` });
  const label = `layer ${layerIndex + 1} of day ${dayIndex + 1}`;
  const errors = form.formState.errors.days?.[dayIndex]?.layers?.[layerIndex] as Record<string, unknown> | undefined;
  return (
    <li className="grid gap-3 rounded-xl border border-line p-3 sm:grid-cols-[repeat(4,minmax(0,1fr))_auto] sm:items-start">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-kind`} className="text-sm font-medium">
          Layer {layerIndex + 1}
        </label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(event) => onKind(event.target.value as LayerKind)}
          className={selectClass}
        >
          {Object.entries(LAYER_KINDS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      {kind === 'track' ? (
        <>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-library`} className="text-sm font-medium">
              Library
            </label>
            <select id={`${id}-library`} className={selectClass} {...form.register(`${base}.audio_kind`)}>
              {AUDIO_KINDS.map((audioKind) => (
                <option key={audioKind} value={audioKind}>
                  {AUDIO_LIBRARIES[audioKind].title}
                </option>
              ))}
            </select>
          </div>
          <Field
            id={`${id}-name`}
            label="Track name"
            error={messageOf(errors?.name)}
            className="min-w-0"
            {...form.register(`${base}.name`)}
          />
        </>
      ) : null}
      {kind === 'binaural' ? (
        <>
          <NumberField
            form={form}
            name={`${base}.left_hz`}
            id={`${id}-left`}
            label="Left ear (Hz)"
            min={20}
            max={1000}
          />
          <NumberField
            form={form}
            name={`${base}.right_hz`}
            id={`${id}-right`}
            label="Right ear (Hz)"
            min={20}
            max={1000}
          />
        </>
      ) : null}
      {kind === 'isochronic' ? (
        <>
          <NumberField
            form={form}
            name={`${base}.carrier_hz`}
            id={`${id}-carrier`}
            label="Tone (Hz)"
            min={20}
            max={1000}
          />
          <NumberField
            form={form}
            name={`${base}.pulse_hz`}
            id={`${id}-pulse`}
            label="Pulses a second"
            step={0.5}
            min={0.5}
            max={40}
          />
        </>
      ) : null}
      {kind === 'noise' ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-colour`} className="text-sm font-medium">
            Colour
          </label>
          <select id={`${id}-colour`} className={`${selectClass} capitalize`} {...form.register(`${base}.colour`)}>
            {NOISE_COLOURS.map((colour) => (
              <option key={colour} value={colour}>
                {colour}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <NumberField
        form={form}
        name={`${base}.gain`}
        id={`${id}-gain`}
        label="Level (0–1)"
        step={0.05}
        min={0}
        max={1}
      />
      <Button
        id={`${id}-remove`}
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Remove ${label}`}
        title="Remove layer"
        onClick={onRemove}
        className="justify-self-end sm:mt-7"
      >
        <X aria-hidden className="h-4 w-4" />
      </Button>
    </li>
  );
}

function DayCard({
  form,
  index,
  count,
  onMove,
  onRemove,
}: {
  form: Form;
  index: number;
  count: number;
  onMove: (delta: number) => void;
  onRemove: () => void;
}) {
  const layers = useFieldArray({ control: form.control, name: `days.${index}.layers` });
  const errors = form.formState.errors.days?.[index];
  const id = `day-${index}`;
  const title = useWatch({ control: form.control, name: `days.${index}.title` });
  const label = `day ${index + 1}`;
  const undoToasts = useUndoToasts();
  // Where each removed layer goes back, whichever Undo is pressed first (decision 136).
  const layerPlaces = useUndoPlaces(layers.fields.map((field) => field.id));
  // Undo puts a layer back through the day as it is then: moved since, the day has another index.
  const restoreLayer = useRef<(removed: symbol, layer: ProgramLayerWrite) => void>(undefined);
  // Why a layer cannot come back now: its day has the most layers a day holds (decision 133).
  const layerRefusal = useRef<(layerIndex: number) => string | undefined>(undefined);
  useEffect(() => {
    layerRefusal.current = (layerIndex) =>
      layers.fields.length >= PROGRAM_DAY_LAYERS_MAX ? undoPastLayersLimit(layerIndex + 1, index + 1) : undefined;
    restoreLayer.current = (removed, layer) => {
      const place = Math.min(layerPlaces.placeOf(removed), layers.fields.length);
      layerPlaces.restored(removed);
      layers.insert(place, layer);
      // The keyboard goes to what came back (decision 129).
      requestAnimationFrame(() => document.getElementById(`${id}-layer-${place}-kind`)?.focus());
    };
  });
  /**
   * The keyboard goes to the remove button of the layer that took the removed one's place (the one before at the end),
   * or to "Add a layer" when none is left, rather than to the page's top with the button pressed (decision 107).
   */
  function removeLayer(layerIndex: number) {
    const left = layers.fields.length - 1;
    const removed = form.getValues(`days.${index}.layers.${layerIndex}`);
    const mark = layerPlaces.removed(layerIndex);
    layers.remove(layerIndex);
    undoToasts.offer(
      `Layer ${layerIndex + 1} of day ${index + 1} removed; not saved yet.`,
      () => removed && restoreLayer.current?.(mark, removed),
      () => layerRefusal.current?.(layerIndex),
    );
    requestAnimationFrame(() => {
      const next = left > 0 ? `${id}-layer-${Math.min(layerIndex, left - 1)}-remove` : `${id}-add-layer`;
      document.getElementById(next)?.focus();
    });
  }
  return (
    <li id={`program-${id}`} className="rounded-2xl border border-line bg-surface p-4">
      <fieldset className="flex min-w-0 flex-col gap-4">
        {/* On a phone the buttons go under the day's title, which would otherwise have a narrow column beside them. */}
        <div className="flex flex-wrap items-center justify-end gap-x-2 sm:flex-nowrap sm:justify-between">
          <legend className="min-w-0 font-semibold wrap-anywhere max-sm:basis-full">
            Day {index + 1}
            {title ? (
              <span className="font-normal text-fg-muted">
                {' '}
                · <bdi>{title}</bdi>
              </span>
            ) : null}
          </legend>
          {/* Apart on a touch screen, where each 40 px icon answers 2 px round it (decision 123). */}
          <div className="flex shrink-0 items-center pointer-coarse:gap-1">
            <MoveButtons index={index} count={count} label={label} onMove={onMove} />
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove ${label}`}
              title={count === 1 ? 'A program needs at least one day' : 'Remove day'}
              disabled={count === 1}
              onClick={onRemove}
            >
              <Trash2 aria-hidden className="h-4 w-4 text-danger" />
            </Button>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <Field
            id={`${id}-title`}
            label="Title"
            error={errors?.title?.message}
            {...form.register(`days.${index}.title`)}
          />
          <NumberField
            form={form}
            name={`days.${index}.minutes`}
            id={`${id}-minutes`}
            label="Length (minutes)"
            min={PROGRAM_DAY_MINUTES.min}
            max={PROGRAM_DAY_MINUTES.max}
          />
        </div>
        <Textarea
          id={`${id}-intro`}
          label="Intro (read before the session)"
          rows={3}
          error={errors?.intro?.message}
          {...form.register(`days.${index}.intro`)}
        />
        <Textarea
          id={`${id}-messages`}
          label="Messages (one per line)"
          rows={4}
          error={messageOf(errors?.messages, 'Message')}
          {...form.register(`days.${index}.messages`)}
        />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Sound layers</p>
          {layers.fields.length === 0 ? (
            <p className="text-sm text-fg-muted">No layers: the messages play in silence.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {layers.fields.map((field, layerIndex) => (
                <LayerFields
                  key={field.id}
                  form={form}
                  dayIndex={index}
                  layerIndex={layerIndex}
                  onKind={(kind) =>
                    // Set in place, not the field array's update, which renders the layer anew: the kind's select
                    // went with it, and the keyboard with it to the page's top (an arrow key on a closed select
                    // changes it).
                    form.setValue(`days.${index}.layers.${layerIndex}`, newLayer(kind), { shouldDirty: true })
                  }
                  onRemove={() => removeLayer(layerIndex)}
                />
              ))}
            </ul>
          )}
          <ErrorText id={`${id}-layers`} error={messageOf(errors?.layers)} announce />
          {layers.fields.length < PROGRAM_DAY_LAYERS_MAX ? (
            <Button
              id={`${id}-add-layer`}
              type="button"
              variant="secondary"
              size="sm"
              className="self-start"
              aria-label={`Add a layer to ${label}`}
              onClick={() =>
                layers.append(newLayer('noise'), { focusName: `days.${index}.layers.${layers.fields.length}.gain` })
              }
            >
              <Plus aria-hidden className="h-4 w-4" />
              Add a layer
            </Button>
          ) : (
            <p className="text-sm text-fg-muted">Up to {PROGRAM_DAY_LAYERS_MAX} layers a day.</p>
          )}
        </div>
      </fieldset>
    </li>
  );
}

/** Creates a program (`program` undefined) or edits one; `onSaved` gets what the server stored. */
export function ProgramEditor({
  program,
  onSaved,
  onUnsaved,
  actions,
}: {
  program: AdminProgram | undefined;
  onSaved: (saved: AdminProgram) => void;
  /** Told whether the form holds what is not saved, as it changes ("All programs" asks first then). */
  onUnsaved?: (unsaved: boolean) => void;
  actions?: React.ReactNode;
}) {
  const save = useSaveProgram();
  const [draft] = useState(() => keptDraft(programDraft(program), programDraftOf));
  // The program as stored that a save writes over (as loaded, then each save's answer, or the one read after a
  // refusal): the server refuses a replace of a program someone saved since, and lets its texts through as stored.
  const [stored, setStored] = useState(program);
  const resolver = useMemo(() => zodResolver(formSchemaOf(stored)), [stored]);
  const form: Form = useForm<FormInput, unknown, FormOutput>({
    resolver,
    defaultValues: draft?.values ?? (program ? programFormValues(program) : emptyProgram()),
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();
  // The program as it was read after a save refused as changed meanwhile, until the form is saved or shows it; a
  // draft given back after such a refusal names the version read then, which is the program here (decision 096).
  const [savedMeanwhile, setSavedMeanwhile] = useState<AdminProgram | null>(draft?.refused && program ? program : null);
  // Kept while it differs from the program as saved (or, new, from an empty one).
  const unchanged = useMemo(() => sameAs(program), [program]);
  useKeepDraft(programDraft(program), form, unchanged, savedMeanwhile ? REFUSED_AS_CHANGED : undefined);
  // Said until it is saved: the program on screen holds what was typed before (a session that ended, a reload).
  const [fromDraft, setFromDraft] = useState(draft !== null);
  const days = useFieldArray({ control: form.control, name: 'days' });
  const undoToasts = useUndoToasts();
  // Where each removed day goes back, whichever Undo is pressed first (decision 136).
  const dayPlaces = useUndoPlaces(days.fields.map((field) => field.id));
  const [status, setStatus] = useState('');
  // The Save bar's height, published: a field reached with Tab stops clear of it (lib/bottom-chrome.ts). It sits
  // the gap published under a page's bar (0.75 rem) above the bottom chrome, as the subliminals' Start/Stop bar does.
  const saveBar = useRef<HTMLDivElement>(null);
  useBottomChromePart('pageBar', saveBar, true);
  const { errors, isDirty } = form.formState;
  const creating = program === undefined;
  const queryClient = useQueryClient();
  const unsaved = isDirty || fromDraft || savedMeanwhile !== null;
  useEffect(() => {
    onUnsaved?.(unsaved);
  }, [onUnsaved, unsaved]);

  const submit = form.handleSubmit(async (values) => {
    const body: AdminProgramWrite = { ...values, updated_at: stored?.updated_at };
    // Saved on a press again, or refused as changed meanwhile in the Save bar, the earlier failure's toast goes
    // (decision 150).
    const of = `save program ${program?.slug ?? 'new'}`;
    try {
      const saved = await save.mutateAsync({ slug: program?.slug, body });
      // What was removed before is saved gone: an Undo now would undo the save's form, not what it saved.
      undoToasts.dismiss();
      failureOver(of);
      toast.success(`${creating ? 'Created' : 'Saved'} ${isolated(saved.title)}.`);
      setStored(saved);
      setSavedMeanwhile(null);
      form.reset(programFormValues(saved));
      dropDraft(programDraft(program));
      setFromDraft(false);
      onSaved(saved);
    } catch (error) {
      if (program && refusedAsChangedMeanwhile(error)) {
        // Said in the Save bar, not in a toast; the next Save names the version read now (decision 091).
        const now = programAsRead(queryClient, program.slug) ?? program;
        setStored(now);
        setSavedMeanwhile(now);
        // Kept at once under the version the form names now, where a reload looks: the draft of the version it
        // began from is never given back over the one saved since (decision 068), and a reload before the next
        // keystroke lost what was typed (decision 096).
        dropDraft(programDraft(program));
        const typed = form.getValues();
        if (!sameAs(now)(typed)) keepDraft(programDraft(now), { ...typed, ...REFUSED_AS_CHANGED });
        return failureOver(of);
      }
      toastFailure(error, describeError(error), of);
      showServerFieldErrors(error, SERVER_FIELDS, form.setError, focusFirstError);
    }
  }, focusFirstError);

  /** Drops what was typed for the program as it is saved now. */
  function showSaved(now: AdminProgram) {
    undoToasts.dismiss();
    form.reset(programFormValues(now));
    dropDraft(programDraft(now));
    setSavedMeanwhile(null);
    setFromDraft(false);
  }

  function moveDay(index: number, delta: number) {
    const to = index + delta;
    days.move(index, to);
    setStatus(`Day ${index + 1} is now day ${to + 1}.`);
    // Keep the keyboard on the moved day's arrows (or the one still enabled at an end of the list).
    requestAnimationFrame(() => {
      const card = document.getElementById(`program-day-${to}`);
      const buttons = Array.from(card?.querySelectorAll<HTMLButtonElement>('button[title^="Move"]') ?? []);
      const wanted = buttons[delta < 0 ? 0 : 1];
      (wanted && !wanted.disabled ? wanted : buttons.find((button) => !button.disabled))?.focus();
    });
  }

  function removeDay(index: number) {
    const removed = form.getValues(`days.${index}`);
    const mark = dayPlaces.removed(index);
    days.remove(index);
    // Said in a toast whose Undo puts the day back as it was (its layers, and the day it was for people's progress)
    // at its place among the days still there, whatever was undone before it (decision 136); the keyboard goes to
    // its title (decision 129).
    undoToasts.offer(
      `Day ${index + 1} removed; not saved yet.`,
      () => {
        const at = Math.min(dayPlaces.placeOf(mark), form.getValues('days').length);
        dayPlaces.restored(mark);
        days.insert(at, removed, { focusName: `days.${at}.title` });
        setStatus(`Day ${at + 1} is back; not saved yet.`);
      },
      () => (form.getValues('days').length >= PROGRAM_DAYS_MAX ? undoPastDaysLimit(index + 1) : undefined),
    );
    requestAnimationFrame(() => {
      const next = document.getElementById(`day-${Math.min(index, days.fields.length - 2)}-title`);
      next?.focus();
    });
  }

  const titleField = form.register('title');
  const slug = useWatch({ control: form.control, name: 'slug' });
  const goalsError = messageOf(errors.goals);
  const daysError = messageOf(errors.days);
  return (
    <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-6">
      <section className={panelClass} aria-labelledby="program-details-heading">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h2 id="program-details-heading" className="min-w-0 card-heading wrap-anywhere">
            {creating ? 'New program' : program.title}
          </h2>
          {actions}
        </div>
        {fromDraft ? (
          <div className="mb-4">
            <DraftBack />
          </div>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="program-title"
            label="Title"
            error={errors.title?.message}
            {...titleField}
            onChange={(event) => {
              void titleField.onChange(event);
              if (creating && !form.getFieldState('slug').isDirty)
                form.setValue('slug', slugOf(event.target.value), { shouldValidate: form.formState.isSubmitted });
            }}
          />
          <div className="flex flex-col gap-1.5">
            <Field
              id="program-slug"
              label="Address"
              autoCapitalize="none"
              spellCheck={false}
              error={errors.slug?.message}
              aria-describedby={errors.slug ? 'program-slug-error program-slug-hint' : 'program-slug-hint'}
              {...form.register('slug')}
            />
            <p id="program-slug-hint" className="text-sm text-fg-muted wrap-anywhere">
              /programs/{slug || '…'} — lowercase letters, digits and hyphens
            </p>
          </div>
          <Textarea
            id="program-summary"
            label="Summary"
            rows={2}
            className="sm:col-span-2"
            error={errors.summary?.message}
            {...form.register('summary')}
          />
          <fieldset className="flex min-w-0 flex-col gap-2 sm:col-span-2">
            <legend className="mb-1 text-sm font-medium">Goals it serves</legend>
            <div className="flex flex-wrap gap-2">
              {GUIDANCE_GOALS.map((goal) => (
                <label
                  key={goal.id}
                  className="flex cursor-pointer items-center gap-2 rounded-full border border-line px-3 py-1.5 text-sm pointer-coarse:min-h-11 has-[:checked]:border-accent has-[:checked]:bg-accent/10"
                >
                  <input
                    type="checkbox"
                    value={goal.id}
                    className="h-4 w-4 accent-accent"
                    {...describedBy('program-goals', goalsError)}
                    {...form.register('goals')}
                  />
                  {goal.label}
                </label>
              ))}
            </div>
            <ErrorText id="program-goals" error={goalsError} />
          </fieldset>
        </div>
      </section>

      <section className={panelClass} aria-labelledby="program-days-heading">
        <h2 id="program-days-heading" className="mb-4 card-heading">
          Days <span className="font-normal text-fg-muted">({days.fields.length})</span>
        </h2>
        <ol className="flex flex-col gap-4">
          {days.fields.map((field, index) => (
            <DayCard
              key={field.id}
              form={form}
              index={index}
              count={days.fields.length}
              onMove={(delta) => moveDay(index, delta)}
              onRemove={() => removeDay(index)}
            />
          ))}
        </ol>
        <ErrorText id="program-days" error={daysError} announce />
        {days.fields.length < PROGRAM_DAYS_MAX ? (
          <Button
            type="button"
            variant="secondary"
            className="mt-4"
            onClick={() => {
              days.append(newDay(), { focusName: `days.${days.fields.length}.title` });
              setStatus(`Day ${days.fields.length + 1} added.`);
            }}
          >
            <Plus aria-hidden className="h-4 w-4" />
            Add a day
          </Button>
        ) : null}
      </section>

      <p role="status" className="sr-only">
        {status}
      </p>
      <div
        ref={saveBar}
        className="sticky bottom-[calc(var(--portal-bottom-chrome,0px)+0.75rem)] z-10 flex flex-col gap-3 rounded-2xl border border-line bg-surface-raised/95 p-3 shadow-sm backdrop-blur"
      >
        {savedMeanwhile ? (
          <div role="alert" className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <p className="min-w-0 flex-1 basis-64 text-sm text-danger">{PROGRAM_CHANGED_MEANWHILE}</p>
            <Button type="button" variant="secondary" size="sm" onClick={() => showSaved(savedMeanwhile)}>
              Show the saved program
            </Button>
          </div>
        ) : null}
        <div className="flex items-center gap-3">
          <SubmitButton pending={save.isPending} pendingLabel="Saving the program">
            {creating ? 'Create program' : 'Save program'}
          </SubmitButton>
          <p className="text-xs text-fg-muted sm:text-sm">
            {creating
              ? 'Members see it once it is created.'
              : unsaved
                ? 'Unsaved changes.'
                : 'Members see what is saved.'}
          </p>
        </div>
      </div>
    </form>
  );
}
