import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { failureOver, toastFailure } from '@web/lib/change';
import type { HistoryEntry, Practice, Reminder } from '@shared/contract';
import { HISTORY_TRY_SECONDS } from '@shared/contract/portal-plain';
import { Button } from '@web/components/ui/button';
import { CheckboxField } from '@web/components/ui/input';
import { SubmitButton } from '@web/components/ui/submit-button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { QueryState } from '@web/components/ui/query-state';
import { paths } from '@web/lib/paths';
import { keyboardToPageHeadingOnceGone } from '@web/lib/keyboard-after-removal';
import { useWaitingRecordCount } from '@web/lib/pending-records';
import { useSession } from '@web/lib/session';
import { deleteHistory, guidanceKeys, practiceQuery, saveReminder } from '../api/guidance';
import { dayHeard, minutesHeard, minutesHeardText, weekHeard } from '../lib/minutes-heard';
import { programDayPath } from '../lib/paths';
import { formatDateTime } from '@web/lib/dates';

export const PRACTICE_TEXTS = {
  deleted: 'Your listening history is deleted.',
  deleteFailed: 'The history could not be deleted. Please try again.',
  reminderSaved: 'Reminder saved.',
  reminderOff: 'Reminder turned off.',
  reminderFailed: 'The reminder could not be saved. Please try again.',
  /** Under the last sessions, when tries were left out of them (docs/decisions/038). */
  triesNotListed: (count: number) =>
    `Not listed: ${count} ${count === 1 ? 'sound' : 'sounds'} tried for under ${HISTORY_TRY_SECONDS} seconds in a session where something longer played.`,
  waiting: (count: number) =>
    count === 1
      ? '1 session played here is waiting to be saved. It is kept on this device and will be sent by itself.'
      : `${count} sessions played here are waiting to be saved. They are kept on this device and will be sent by themselves.`,
};

/** "12 min", "1 h 5 min"; under a minute "under 1 min". */
export function duration(seconds: number): string {
  if (seconds < 60) return 'under 1 min';
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const dayName = (since: string, index: number) =>
  new Date(new Date(since).getTime() + (index + 1) * 86_400_000 - 1).toLocaleDateString(undefined, {
    weekday: 'short',
  });

function Week({ practice }: { practice: Practice }) {
  const { week } = practice;
  const highest = Math.max(1, ...week.daily_minutes);
  const heard = minutesHeard(weekHeard(week));
  return (
    <section aria-labelledby="week-title" className="rounded-3xl border border-line bg-surface-raised p-6">
      <h2 id="week-title" className="card-heading">
        The last seven days
      </h2>
      <p className="mt-3 text-4xl font-semibold tabular-nums">
        {heard.count === null ? (
          heard.words
        ) : (
          <>
            {heard.count} <span className="text-lg font-normal text-fg-muted">{heard.words}</span>
          </>
        )}
      </p>
      <p className="text-fg-muted">
        {week.sessions === 0
          ? 'No sessions in the last seven days. Whenever you are ready.'
          : `${week.sessions} ${week.sessions === 1 ? 'session' : 'sessions'}`}
      </p>
      <ol className="mt-6 grid h-32 grid-cols-7 items-end gap-2" aria-label="Minutes each day">
        {week.daily_minutes.map((minutes, index) => (
          <li key={index} className="flex h-full flex-col items-center justify-end gap-1.5">
            <span className="sr-only">
              {dayName(week.since, index)}: {minutesHeardText(dayHeard(week, index))}
            </span>
            {/* A day heard for under a minute stands above one not heard at all, as its words do. */}
            <span
              aria-hidden
              className="w-full max-w-8 rounded-t-lg bg-accent/70"
              style={{ height: `${Math.max(dayHeard(week, index).heard ? 6 : 2, (minutes / highest) * 100)}%` }}
            />
            <span aria-hidden className="text-xs text-fg-muted">
              {dayName(week.since, index)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function entryLink(entry: HistoryEntry): string | null {
  const program = /^program:([a-z0-9-]+)\/(\d+)$/.exec(entry.ref);
  if (program) return programDayPath(program[1]!, Number(program[2]));
  if (entry.kind === 'music' || entry.kind === 'binaural') return paths.music;
  if (entry.kind === 'subliminal') return paths.subliminals;
  return null;
}

function LastSessions({ practice }: { practice: Practice }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const mutation = useMutation({
    mutationFn: deleteHistory,
    onSuccess: async () => {
      // Its trigger goes with what it changed: the keyboard goes to the page's heading, not the page's top.
      const moveKeyboard = keyboardToPageHeadingOnceGone(trigger.current);
      await queryClient.invalidateQueries({ queryKey: guidanceKeys.all });
      setOpen(false);
      moveKeyboard();
      failureOver('delete history');
      toast.success(PRACTICE_TEXTS.deleted);
    },
    onError: (error) => toastFailure(error, PRACTICE_TEXTS.deleteFailed, 'delete history'),
  });
  const sessions = practice.last_sessions;
  return (
    <section aria-labelledby="sessions-title" className="rounded-3xl border border-line bg-surface-raised p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sessions-title" className="card-heading">
          Last sessions
        </h2>
        {practice.total_sessions > 0 ? (
          <Dialog open={open} onOpenChange={(next) => !mutation.isPending && setOpen(next)}>
            <DialogTrigger asChild>
              <Button ref={trigger} variant="ghost" size="sm" className="-me-4 text-danger">
                Delete history
              </Button>
            </DialogTrigger>
            <DialogContent
              title="Delete your listening history?"
              description={`All ${practice.total_sessions} recorded ${practice.total_sessions === 1 ? 'session goes' : 'sessions go'}, for good. Program progress and your answers stay.`}
            >
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button variant="secondary" busy={mutation.isPending}>
                    Cancel
                  </Button>
                </DialogClose>
                <Button variant="danger" onClick={() => mutation.mutate()} busy={mutation.isPending}>
                  {mutation.isPending ? 'Deleting…' : 'Delete history'}
                </Button>
              </div>
            </DialogContent>
          </Dialog>
        ) : null}
      </div>
      {sessions.length === 0 ? (
        <p className="mt-3 text-fg-muted">
          Nothing yet. Sessions you play in the portal show here once they end, with how long you listened.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-line">
          {sessions.map((entry) => {
            const link = entryLink(entry);
            return (
              <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3">
                <span className="min-w-0 font-medium">
                  {link ? (
                    <Link to={link} className="hover:underline">
                      {entry.title}
                    </Link>
                  ) : (
                    entry.title
                  )}
                </span>
                <span className="text-sm text-fg-muted">
                  {duration(entry.seconds)} · {entry.finished ? 'played to the end' : 'stopped'} ·{' '}
                  {formatDateTime(entry.started_at)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {practice.tries_not_listed > 0 ? (
        <p className="mt-2 text-sm text-fg-muted">{PRACTICE_TEXTS.triesNotListed(practice.tries_not_listed)}</p>
      ) : null}
    </section>
  );
}

function ReminderSettings({ reminder }: { reminder: Reminder }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(reminder.enabled);
  const [time, setTime] = useState(reminder.time_of_day ?? '20:00');
  const enabledId = useId();
  const timeId = useId();
  const mutation = useMutation({
    mutationFn: saveReminder,
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: guidanceKeys.practice });
      failureOver('save reminder');
      toast.success(saved.enabled ? PRACTICE_TEXTS.reminderSaved : PRACTICE_TEXTS.reminderOff);
    },
    // Saved on a press again, the earlier failure's toast goes (decision 150).
    onError: (error) => toastFailure(error, PRACTICE_TEXTS.reminderFailed, 'save reminder'),
  });
  return (
    <section aria-labelledby="reminder-title" className="rounded-3xl border border-line bg-surface-raised p-6">
      <h2 id="reminder-title" className="card-heading">
        A gentle reminder
      </h2>
      <p className="mt-2 text-fg-muted">
        If you like, the portal home shows a quiet note once your chosen time has passed on a day you have not listened
        yet. Only inside the portal: no e-mail, no notifications, and nothing counts against you.
      </p>
      <form
        className="mt-4 flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          mutation.mutate({ enabled, time_of_day: enabled ? time : null });
        }}
      >
        {/* As tall as the time field, whose bottom the row aligns: the box on the field's middle, not 10 px below it. */}
        <CheckboxField
          id={enabledId}
          className="min-h-11 justify-center"
          label="Remind me in the portal each day"
          checked={enabled}
          onChange={(event) => setEnabled(event.target.checked)}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={timeId} className="text-sm font-medium">
            After
          </label>
          <input
            id={timeId}
            type="time"
            value={time}
            required={enabled}
            disabled={!enabled}
            onChange={(event) => setTime(event.target.value)}
            className="input w-36"
          />
        </div>
        <SubmitButton variant="secondary" pending={mutation.isPending} pendingLabel="Saving the reminder">
          Save reminder
        </SubmitButton>
      </form>
    </section>
  );
}

/** /practice (docs/product/screens.md#your-practice): minutes this week, last sessions, reminder. */
export function PracticeView() {
  const query = useQuery(practiceQuery());
  // Records of this browser that could not reach the server yet (docs/decisions/046): said quietly, shown
  // also when the practice itself cannot load, and gone once they are sent.
  const waiting = useWaitingRecordCount(useSession().id);
  return (
    <>
      {waiting > 0 ? (
        <p role="status" className="text-sm text-fg-muted">
          {PRACTICE_TEXTS.waiting(waiting)}
        </p>
      ) : null}
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={false}
        emptyText=""
        onRetry={() => void query.refetch()}
        what="your practice"
      >
        {query.data ? (
          <div className="grid gap-6 lg:grid-cols-2">
            <Week practice={query.data} />
            <ReminderSettings reminder={query.data.reminder} />
            <div className="lg:col-span-2">
              <LastSessions practice={query.data} />
            </div>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}
