import { useId, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Music, Pause, Play } from 'lucide-react';
import type { AudioItem, AudioKind } from '@shared/contract';
import { Spinner } from '@web/components/ui/spinner';
import { soundEngine } from '@web/lib/audio/app-engine';
import { formatClock } from '@web/lib/audio/mixer';
import { libraryListQuery } from '@web/lib/audio/track-lists';
import { useEngineClock } from '@web/lib/audio/use-sound-engine';
import type { TrackStatus } from '../hooks/use-track-player';
import { RangeInput } from '@web/components/ui/range-input';

export const playbackKey = (kind: AudioKind, id: number) => `${kind}:${id}`;

interface AudioListProps {
  kind: AudioKind;
  title: string;
  loadError: string;
  /** The seeded library is still being prepared: tracks are on their way (docs/product/content.md#audio-libraries). */
  preparing?: boolean;
  statusOf(key: string): TrackStatus;
  onToggle(key: string, title: string, url: string): void;
}

export function AudioList({ kind, title, loadError, preparing = false, statusOf, onToggle }: AudioListProps) {
  const list = useQuery(libraryListQuery(kind));

  return (
    <section aria-labelledby={`${kind}-heading`} className="flex flex-col gap-3">
      <h2 id={`${kind}-heading`} className="card-heading">
        {title}
      </h2>
      {list.isPending ? (
        // Room for the list that comes (nine solfeggio tracks fill a phone's screen), so the sections under
        // it do not jump when it arrives (CLS, issue 20).
        <div className="flex min-h-[40rem] justify-center lg:min-h-[24rem]">
          <Spinner waitsForServer label={`Loading ${title}`} className="h-fit py-8" />
        </div>
      ) : list.isError ? (
        <p role="alert" className="rounded-2xl border border-danger p-4 text-sm text-danger">
          {loadError}
        </p>
      ) : list.data.length === 0 ? (
        preparing ? (
          <PreparingNote text={LIBRARY_PREPARING} />
        ) : (
          <p className="text-sm text-fg-muted">No tracks here yet.</p>
        )
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2">
          {list.data.map((item) => (
            <AudioCard
              key={item.id}
              item={item}
              status={statusOf(playbackKey(kind, item.id))}
              onToggle={() => onToggle(playbackKey(kind, item.id), item.name, item.audio_file)}
            />
          ))}
        </ul>
      )}
      {preparing && list.isSuccess && list.data.length > 0 ? <PreparingNote text={LIBRARY_STILL_PREPARING} /> : null}
    </section>
  );
}

export const LIBRARY_PREPARING = 'The library is being prepared. Its tracks appear here as they are ready.';
export const LIBRARY_STILL_PREPARING = 'The library is still being prepared: more tracks may appear here shortly.';

function PreparingNote({ text }: { text: string }) {
  return (
    <p className="flex items-center gap-2 text-sm text-fg-muted">
      <LoaderCircle aria-hidden className="h-4 w-4 shrink-0 motion-safe:animate-spin" />
      {text}
    </p>
  );
}

/** A track with its play button, status and, while it plays, its progress; `actions` beside the button. */
export function AudioCard({
  item,
  status,
  onToggle,
  actions,
}: {
  item: Pick<AudioItem, 'name'> & Partial<Pick<AudioItem, 'description' | 'cover_image'>>;
  status: TrackStatus;
  onToggle(): void;
  actions?: ReactNode;
}) {
  const active = status === 'playing' || status === 'loading';
  const label = `${status === 'loading' ? 'Stop loading' : active ? 'Pause' : 'Play'} ${item.name}`;
  return (
    <li
      data-testid="audio-item"
      data-state={status}
      className="flex flex-wrap gap-3 rounded-2xl border border-line bg-surface-raised p-3 data-[state=paused]:border-dashed data-[state=paused]:border-accent-strong data-[state=playing]:border-accent"
    >
      {item.cover_image ? (
        <img
          src={item.cover_image}
          alt=""
          width={80}
          height={80}
          loading="lazy"
          className="h-20 w-20 shrink-0 rounded-xl object-cover"
        />
      ) : (
        <span className="flex h-20 w-20 shrink-0 items-center justify-center rounded-xl bg-black/5 dark:bg-white/10">
          <Music aria-hidden className="h-6 w-6 text-fg-muted" />
        </span>
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {/* A person's own file name may be one long word (Evening_tone_final_master…): it wraps, so the card
            stays as wide as its column and its buttons stay on screen. The status goes under the name where the two
            do not fit on a line, at its left edge, where an inline margin set it 8 px in
            (docs/decisions/155-a-paying-members-month-walked.md). */}
        <h3 className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium leading-snug wrap-anywhere">
          <bdi>{item.name}</bdi>
          {status !== 'idle' ? <StatusBadge status={status} /> : null}
        </h3>
        {item.description ? <p className="line-clamp-3 text-sm text-fg-muted">{item.description}</p> : null}
      </div>
      {actions}
      <button
        type="button"
        onClick={onToggle}
        aria-label={label}
        aria-pressed={active}
        className="flex h-11 w-11 shrink-0 items-center justify-center self-center rounded-full bg-accent text-accent-ink shadow-sm hover:bg-[#00c774] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring"
      >
        {status === 'loading' ? (
          <LoaderCircle aria-hidden className="h-5 w-5 animate-spin" />
        ) : status === 'playing' ? (
          <Pause aria-hidden className="h-5 w-5" />
        ) : (
          <Play aria-hidden className="h-5 w-5" />
        )}
      </button>
      {status === 'playing' || status === 'paused' ? (
        <TrackProgress name={item.name} playing={status === 'playing'} />
      ) : null}
    </li>
  );
}

const STATUS_TEXT: Record<Exclude<TrackStatus, 'idle'>, string> = {
  loading: 'Loading',
  playing: 'Playing',
  paused: 'Paused',
  ended: 'Ended',
};

function StatusBadge({ status }: { status: Exclude<TrackStatus, 'idle'> }) {
  return (
    <span
      data-status={status}
      className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-fg-muted data-[status=playing]:border-transparent data-[status=playing]:bg-accent/20 data-[status=playing]:text-fg"
    >
      {STATUS_TEXT[status]}
    </span>
  );
}

/** Where the playing track is in its loop, with a slider to move there. */
function TrackProgress({ name, playing }: { name: string; playing: boolean }) {
  const id = useId();
  const position = useEngineClock(() => soundEngine.trackPosition(), playing);
  if (!position) return null;
  // A decoded file's length is a few milliseconds off its whole seconds (59.98 s for a minute's
  // tone): rounded, not cut down to "0:59", while the position still counts whole seconds passed.
  const length = formatClock(Math.round(position.duration));
  return (
    <div className="flex w-full items-center gap-3">
      <label htmlFor={id} className="sr-only">
        Seek {name}
      </label>
      <RangeInput
        id={id}
        min={0}
        max={position.duration}
        // An arrow key moves a whole second, which the value read out says: a tenth left it saying the same
        // "0:12 of 1:00" for ten presses (decision 113).
        step={1}
        value={position.position}
        aria-valuetext={`${formatClock(position.position)} of ${length}`}
        onChange={(event) => soundEngine.seekTrack(event.target.valueAsNumber)}
        className="min-w-0 flex-1"
      />
      <span className="shrink-0 text-xs tabular-nums text-fg-muted">
        {formatClock(position.position)} / {length} · loops
      </span>
    </div>
  );
}
