import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Music, Pause, Play } from 'lucide-react';
import { toast } from 'sonner';
import type { AudioItem, AudioKind } from '@shared/contract';
import { Spinner } from '@web/components/ui/spinner';
import { audioListQuery } from '../api/audio-lists';
import type { Playback } from '../hooks/use-audio-player';

export const playbackKey = (kind: AudioKind, id: number) => `${kind}:${id}`;

interface AudioListProps {
  kind: AudioKind;
  title: string;
  path: string;
  loadError: string;
  playback: Playback | null;
  onToggle(key: string, url: string): void;
}

export function AudioList({ kind, title, path, loadError, playback, onToggle }: AudioListProps) {
  const list = useQuery(audioListQuery(kind, path));
  useEffect(() => {
    if (list.isError) toast.error(loadError);
  }, [list.isError, loadError]);

  return (
    <section aria-labelledby={`${kind}-heading`} className="flex flex-col gap-3">
      <h2 id={`${kind}-heading`} className="text-xl font-semibold">
        {title}
      </h2>
      {list.isPending ? (
        <Spinner label={`Loading ${title}`} className="py-8" />
      ) : list.isError ? (
        <p role="alert" className="rounded-2xl border border-danger p-4 text-sm text-danger">
          {loadError}
        </p>
      ) : list.data.length === 0 ? (
        <p className="text-sm text-fg-muted">No tracks here yet.</p>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2">
          {list.data.map((item) => (
            <AudioCard
              key={item.id}
              item={item}
              status={playback?.key === playbackKey(kind, item.id) ? playback.status : undefined}
              onToggle={() => onToggle(playbackKey(kind, item.id), item.audio_file)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function AudioCard({
  item,
  status,
  onToggle,
}: {
  item: AudioItem;
  status: Playback['status'] | undefined;
  onToggle(): void;
}) {
  const active = status === 'playing' || status === 'loading';
  const label = `${active ? 'Pause' : 'Play'} ${item.name}`;
  return (
    <li
      data-testid="audio-item"
      data-state={status ?? 'idle'}
      className="flex gap-3 rounded-2xl border border-line bg-surface-raised p-3 data-[state=playing]:border-accent"
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
        <h3 className="font-medium leading-snug">{item.name}</h3>
        <p className="line-clamp-3 text-sm text-fg-muted">{item.description}</p>
      </div>
      <button
        type="button"
        onClick={onToggle}
        aria-label={label}
        aria-pressed={active}
        className="flex h-11 w-11 shrink-0 items-center justify-center self-center rounded-full bg-accent text-accent-ink shadow-sm hover:bg-[#00c774] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        {status === 'loading' ? (
          <LoaderCircle aria-hidden className="h-5 w-5 animate-spin" />
        ) : status === 'playing' ? (
          <Pause aria-hidden className="h-5 w-5" />
        ) : (
          <Play aria-hidden className="h-5 w-5" />
        )}
      </button>
    </li>
  );
}
