import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CheckCircle2, Circle, Headphones, ListChecks, Play, Square } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { failureOver, toastFailure } from '@web/lib/change';
import type { Program, ProgramDay, ProgramLayer } from '@shared/contract';
import { PageTitle } from '@web/components/page-title';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { QueryState } from '@web/components/ui/query-state';
import { soundEngine } from '@web/lib/audio/app-engine';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { NOISE_LABELS } from '@web/lib/audio/noise';
import { clsx } from 'clsx';
import { paths } from '@web/lib/paths';
import { keyboardToPageHeadingOnceGone } from '@web/lib/keyboard-after-removal';
import { portalVisit } from '@web/lib/portal-presence';
import { usePlan } from '@web/lib/plan';
import { PlanLock } from '@web/components/plan-lock';
import { guidanceKeys, onboardingQuery, programQuery, resetProgress } from '../api/guidance';
import { dayLayers, daySound, startDaySession } from '../lib/day-session';
import { programDayPath } from '../lib/paths';
import { MessageReader } from './message-reader';
import { ProgramProgressBar, usePlayingDay } from './program-progress';
import { toastProblem } from '@web/lib/toast-problem';

export const PROGRAM_TEXTS = {
  startFailed: 'The session could not start. Please try again.',
  nothingToPlay: 'This day has no sound that can play here.',
  reset: 'Progress reset. The program starts again at day 1.',
  resetFailed: 'The progress could not be reset. Please try again.',
  notFoundTitle: 'Program not found',
  notFound: 'The program you asked for does not exist. Check the address, or choose one of all the programs.',
};

const beat = (a: number, b: number) => Math.round(Math.abs(a - b) * 10) / 10;

/** A layer as a person would name it (the mini-player names the track itself once it plays). */
function layerLabel(layer: ProgramLayer): string {
  switch (layer.kind) {
    case 'track':
      return layer.track_id === null ? `${layer.name} (no longer in the library)` : layer.name;
    case 'binaural':
      return `Binaural beats · ${beat(layer.left_hz, layer.right_hz)} Hz (headphones)`;
    case 'isochronic':
      return `Isochronic tones · ${layer.pulse_hz} Hz`;
    case 'noise':
      return NOISE_LABELS[layer.colour];
  }
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean)
        .map((paragraph, index) => (
          <p key={index} className="text-fg-muted">
            {paragraph}
          </p>
        ))}
    </>
  );
}

function ResetProgress({ program }: { program: Program }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const mutation = useMutation({
    mutationFn: () => resetProgress(program.slug),
    onSuccess: async () => {
      // Its trigger goes with what it changed: the keyboard goes to the page's heading, not the page's top.
      const moveKeyboard = keyboardToPageHeadingOnceGone(trigger.current);
      await queryClient.invalidateQueries({ queryKey: guidanceKeys.all });
      setOpen(false);
      moveKeyboard();
      failureOver(`reset ${program.slug}`);
      toast.success(PROGRAM_TEXTS.reset);
    },
    // Reset on a press again, the earlier failure's toast goes (decision 150).
    onError: (error) => toastFailure(error, PROGRAM_TEXTS.resetFailed, `reset ${program.slug}`),
  });
  return (
    <Dialog open={open} onOpenChange={(next) => !mutation.isPending && setOpen(next)}>
      {/* Its text lines up with the progress bar above it: the button's padding sits outside the column. */}
      <DialogTrigger asChild>
        <Button ref={trigger} variant="ghost" size="sm" className="-ms-4">
          Reset progress
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Reset your progress?"
        description={
          <>
            The days you finished in <bdi>{program.title}</bdi> are unmarked and it starts again at day 1. Your
            listening history stays.
          </>
        }
      >
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary" busy={mutation.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button onClick={() => mutation.mutate()} busy={mutation.isPending}>
            {mutation.isPending ? 'Resetting…' : 'Reset progress'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function DaySession({ program, day }: { program: Program; day: ProgramDay }) {
  const queryClient = useQueryClient();
  const engine = useSoundEngine();
  const headphones = useQuery(onboardingQuery()).data?.headphones ?? null;
  const [starting, setStarting] = useState(false);
  const thisDayPlays = usePlayingDay(program.slug) === day.day;
  const done = program.progress.completed_days.includes(day.day);
  const layered = usePlan().includes('soundLayers');
  const sound = daySound(day.layers, { headphones, layered });
  const skipsBinaural = sound.leftOut.some(({ why }) => why === 'headphones');
  const leftOutForPlan = sound.leftOut.filter(({ why }) => why === 'plan').map(({ layer }) => layerLabel(layer));

  async function start() {
    // Inside the press, before the library is asked: Safari starts sound only there (decision 075); released
    // once the day has started or will not, so nothing left to play leaves the audio device asleep (decision 080).
    const release = soundEngine.prime();
    // A sign-out while the library answers starts nothing (decision 085).
    const visit = portalVisit();
    setStarting(true);
    try {
      const layers = await dayLayers(queryClient, sound.playing);
      visit.check();
      if (layers.length === 0) return void toastProblem(PROGRAM_TEXTS.nothingToPlay);
      await startDaySession(layers, { slug: program.slug, programTitle: program.title, day });
      failureOver(`start ${program.slug} ${day.day}`);
    } catch (error) {
      toastFailure(error, PROGRAM_TEXTS.startFailed, `start ${program.slug} ${day.day}`);
    } finally {
      release();
      setStarting(false);
    }
  }

  return (
    <article
      aria-labelledby="day-title"
      className="flex flex-col gap-5 rounded-3xl border border-line bg-surface-raised p-6 sm:p-8"
    >
      <header className="flex flex-col gap-1">
        <p className="text-sm font-medium text-fg-muted">
          Day {day.day} of {program.days.length} · {day.minutes} min{done ? ' · done' : ''}
        </p>
        <h2 id="day-title" className="card-heading">
          {day.title}
        </h2>
      </header>
      {thisDayPlays ? (
        <MessageReader messages={day.messages} playing={engine.status === 'playing'} />
      ) : (
        <div className="flex flex-col gap-3">
          <Paragraphs text={day.intro} />
        </div>
      )}
      <div className="flex flex-col gap-2 text-sm">
        <h3 className="font-semibold">What plays</h3>
        <ul className="flex flex-col gap-1 text-fg-muted">
          {day.layers.map((layer, index) => (
            <li key={index}>{layerLabel(layer)}</li>
          ))}
          <li>
            {day.messages.length} {day.messages.length === 1 ? 'message' : 'messages'} to read, one at a time
          </li>
        </ul>
        {skipsBinaural ? (
          <p className="flex items-center gap-2 text-fg-muted">
            <Headphones aria-hidden className="h-4 w-4" /> You said you listen on speakers, so the binaural layer is
            left out.
          </p>
        ) : null}
        {leftOutForPlan.length > 0 ? (
          <div className="flex flex-wrap items-center gap-3 text-fg-muted">
            <p>
              Your plan plays one sound at a time, so {leftOutForPlan.join(', ')}{' '}
              {leftOutForPlan.length === 1 ? 'is' : 'are'} left out.
            </p>
            <PlanLock feature="soundLayers" what="Sound layers" />
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {thisDayPlays ? (
          <Button variant="secondary" onClick={() => soundEngine.stop()}>
            <Square aria-hidden className="h-4 w-4" /> Stop
          </Button>
        ) : (
          // Busy while it starts, so the keyboard stays on it, and on the Stop it turns into, the same button (decision 107).
          <Button onClick={() => void start()} busy={starting}>
            <Play aria-hidden className="h-4 w-4" />
            {starting ? 'Starting…' : done ? `Play day ${day.day} again` : `Start day ${day.day}`}
          </Button>
        )}
        <p className="text-sm text-fg-muted">
          {thisDayPlays
            ? 'Playing. The sound fades out by itself at the end; the day counts as done when it does.'
            : 'The day counts as done when its session plays to the end.'}
        </p>
      </div>
    </article>
  );
}

/** A slug that names no program (a stale link, a mistyped address): the programs are a click away. */
function ProgramNotFound() {
  return (
    <section className="flex flex-col gap-4">
      <PageTitle title={PROGRAM_TEXTS.notFoundTitle}>{PROGRAM_TEXTS.notFoundTitle}</PageTitle>
      <p className="text-fg-muted">{PROGRAM_TEXTS.notFound}</p>
      <Button asChild className="self-start">
        <Link to={paths.programs}>
          <ListChecks aria-hidden className="h-4 w-4" /> See all programs
        </Link>
      </Button>
    </section>
  );
}

/** /programs/:slug (docs/product/screens.md#program): the days, the chosen day, and starting it. */
export function ProgramView({ slug }: { slug: string }) {
  const query = useQuery(programQuery(slug));
  const [search] = useSearchParams();
  const program = query.data;
  const asked = Number(search.get('day'));
  const selected =
    program?.days.find((day) => day.day === asked) ??
    program?.days.find((day) => day.day === program.progress.next_day) ??
    program?.days[0];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8">
      <Link
        to={paths.programs}
        className="inline-flex w-fit items-center gap-2 text-sm text-link underline-offset-4 hover:underline pointer-coarse:min-h-11"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" /> All programs
      </Link>
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={false}
        emptyText=""
        onRetry={() => void query.refetch()}
        notFound={<ProgramNotFound />}
        what="this program"
      >
        {program && selected ? (
          <>
            <header className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
              <div className="flex max-w-2xl flex-col gap-2">
                <PageTitle title={program.title}>{program.title}</PageTitle>
                <p className="text-fg-muted">{program.summary}</p>
              </div>
              <div className="flex min-w-56 flex-col gap-2">
                <ProgramProgressBar progress={program.progress} dayCount={program.days.length} />
                {program.progress.completed_days.length > 0 ? (
                  <div>
                    <ResetProgress program={program} />
                  </div>
                ) : null}
              </div>
            </header>
            <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
              <nav aria-label="Days">
                {/* Narrow screens: a compact row of days, so the chosen day is near the top; on a phone, where they
                    wrap, in columns of one width, so the days under each other line up. */}
                <ol className="grid grid-cols-[repeat(auto-fill,minmax(6rem,1fr))] gap-1 sm:flex sm:flex-wrap lg:flex-col">
                  {program.days.map((day) => {
                    const done = program.progress.completed_days.includes(day.day);
                    const current = day.day === selected.day;
                    return (
                      <li key={day.day}>
                        <Link
                          to={programDayPath(program.slug, day.day)}
                          replace
                          aria-current={current ? 'page' : undefined}
                          className={clsx(
                            'flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm hover:bg-black/5 pointer-coarse:py-3 dark:hover:bg-white/10',
                            current && 'bg-accent/15 font-medium',
                          )}
                        >
                          {done ? (
                            <CheckCircle2 aria-label="Done" className="h-5 w-5 shrink-0 text-link" />
                          ) : (
                            <Circle aria-hidden className="h-5 w-5 shrink-0 text-fg-muted" />
                          )}
                          <span className="min-w-0 lg:flex-1">
                            <span className="block">Day {day.day}</span>
                            <span className="block break-words text-fg-muted max-lg:hidden">{day.title}</span>
                          </span>
                          <span className="text-xs tabular-nums text-fg-muted max-lg:hidden">{day.minutes} min</span>
                        </Link>
                      </li>
                    );
                  })}
                </ol>
              </nav>
              <DaySession key={selected.day} program={program} day={selected} />
            </div>
          </>
        ) : null}
      </QueryState>
    </div>
  );
}
