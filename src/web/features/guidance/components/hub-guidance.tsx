import { useQuery } from '@tanstack/react-query';
import { ArrowRight, BellRing, Compass, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import type { GoalId, Practice, ProgramSummary, Recommendations } from '@shared/contract';
import { GUIDANCE_GOALS, goalLabel } from '@shared/contract/portal-plain';
import { PlanLock } from '@web/components/plan-lock';
import { Button } from '@web/components/ui/button';
import { IconBadge } from '@web/components/ui/icon-badge';
import { QueryState } from '@web/components/ui/query-state';
import { categoryPath, paths } from '@web/lib/paths';
import { usePlan } from '@web/lib/plan';
import { onboardingQuery, practiceQuery, programsQuery, recommendationsQuery } from '../api/guidance';
import { minutesHeardText, weekHeard } from '../lib/minutes-heard';
import { programPath } from '../lib/paths';
import { onboardingPending } from './onboarding-prompt';
import { minutesRange, useProgramStarted } from './program-progress';

/** How far a program's days are from a session length: 0 when one of its days is that long or it lies between them. */
const minutesAway = ({ min, max }: ProgramSummary['minutes'], minutes: number) =>
  minutes < min ? min - minutes : minutes > max ? minutes - max : 0;

/**
 * The program suggested for the person's goals: of the programs about one of them, the one whose days come closest
 * to their session length, when they gave one; between as close, the one about the goal chosen first, then the
 * first listed. Named with the first chosen goal it is about (docs/decisions/120-what-guidance-and-the-home-page-promise.md).
 */
/** The suggested program's link: its next day once the person has started it (as its progress says), else the program. */
function OpenProgram({ program }: { program: ProgramSummary }) {
  const started = useProgramStarted(program.progress);
  return (
    <Button asChild size="sm" className="mt-4">
      <Link to={programPath(program.slug)}>
        {started && program.progress.next_day
          ? `Continue with day ${program.progress.next_day}`
          : `Open ${program.title}`}
        <ArrowRight aria-hidden className="h-4 w-4" />
      </Link>
    </Button>
  );
}

export function suggestedProgram(
  goals: readonly GoalId[],
  programs: readonly ProgramSummary[],
  sessionMinutes: number | null = null,
): { program: ProgramSummary; goal: GoalId } | null {
  let best: { program: ProgramSummary; goal: GoalId; away: number; goalIndex: number } | null = null;
  for (const program of programs) {
    const goalIndex = goals.findIndex((goal) => program.goals.includes(goal));
    if (goalIndex < 0) continue;
    const away = sessionMinutes === null ? 0 : minutesAway(program.minutes, sessionMinutes);
    if (!best || away < best.away || (away === best.away && goalIndex < best.goalIndex))
      best = { program, goal: goals[goalIndex]!, away, goalIndex };
  }
  return best && { program: best.program, goal: best.goal };
}

/** The goals a program is about, in the onboarding's order. */
export function goalsWithAProgram(programs: readonly ProgramSummary[]) {
  return GUIDANCE_GOALS.filter((goal) => programs.some((program) => program.goals.includes(goal.id)));
}

/** Whether today's reminder is due: on, its time passed, and nothing listened to yet today. */
export function reminderDue(practice: Practice | undefined, now = new Date()): boolean {
  const reminder = practice?.reminder;
  if (!reminder?.enabled || !reminder.time_of_day) return false;
  const hhmm = `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
  if (hhmm < reminder.time_of_day) return false;
  const last = practice?.last_sessions[0];
  return !last || new Date(last.started_at).toDateString() !== now.toDateString();
}

const card = 'rounded-3xl border border-line bg-surface-raised p-6';

/**
 * What the recommendations card says they come from: ranked for the person, or the library's general starting
 * points, whose every reason is the same and is then not repeated under each (decision 099).
 */
function recommendationsIntro(data: Recommendations | undefined): string {
  if (data && !data.ranked) {
    const { based_on: basedOn } = data;
    const gaveSomething = basedOn.goals.length > 0 || basedOn.free_text || basedOn.own_messages || basedOn.history;
    return gaveSomething
      ? 'Nothing you told us or listened to matches the library yet, so these are gentle places to start.'
      : 'Nothing to go on yet, so these are gentle places to start. Your goals, your own messages and what you listen to rank them for you, each with the reason.';
  }
  return 'Ranked from your goals, your own messages and what you have listened to, each with the reason.';
}

function RecommendationList({ data }: { data: Recommendations }) {
  const groups = [
    {
      title: 'Programs',
      items: data.programs.map((item) => ({
        key: `p${item.slug}`,
        to: programPath(item.slug),
        name: item.title,
        reason: item.reason,
      })),
    },
    {
      title: 'Affirmation categories',
      items: data.categories.map((item) => ({
        key: `c${item.id}`,
        to: categoryPath(item.id),
        name: item.name,
        reason: item.reason,
      })),
    },
    {
      title: 'Tracks',
      items: data.tracks.map((item) => ({
        key: `t${item.kind}${item.id}`,
        to: paths.music,
        name: item.name,
        reason: item.reason,
      })),
    },
    {
      title: 'Messages',
      items: data.messages.map((item) => ({
        key: `m${item.id}`,
        to: categoryPath(item.category_id),
        name: `“${item.message_text}”`,
        reason: `${item.reason} · ${item.category_name}`,
      })),
    },
  ].filter((group) => group.items.length > 0);
  if (groups.length === 0)
    return <p className="mt-3 text-fg-muted">Nothing to suggest yet. Listen a little, and look again.</p>;
  return (
    <div className="mt-5 grid gap-6 md:grid-cols-2">
      {groups.map((group) => (
        <div key={group.title}>
          <h3 className="text-sm font-semibold uppercase tracking-wide text-fg-muted">{group.title}</h3>
          <ol className="mt-2 flex flex-col gap-1">
            {group.items.slice(0, 4).map((item) => (
              <li key={item.key}>
                <Link
                  to={item.to}
                  className="block rounded-xl px-3 py-2 hover:bg-black/5 pointer-coarse:py-2.5 dark:hover:bg-white/10"
                >
                  <span className="block font-medium">{item.name}</span>
                  {data.ranked ? <span className="block text-sm text-fg-muted">{item.reason}</span> : null}
                </Link>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </div>
  );
}

function RecommendationsCard() {
  const { has, read } = usePlan();
  const pro = has('recommendations') === true;
  const planFailed = read.isError && !read.data;
  const query = useQuery(recommendationsQuery(pro));
  // Below Pro nothing is ranked: the card names the feature and offers it under its lock, never saying what it
  // is ranked from; until the plan is known, it says nothing of either (docs/decisions/122-the-hub-says-what-each-plan-does.md).
  // A plan or recommendations that cannot be read say so, with the lists' "Try again" (decision 124).
  return (
    <section aria-labelledby="recommended-title" className={card}>
      <div className="flex items-start gap-4">
        <IconBadge icon={Sparkles} size="md" />
        <div className="min-w-0 flex-1">
          <h2 id="recommended-title" className="card-heading">
            {pro ? 'Recommended for you' : 'Personal recommendations'}
          </h2>
          {pro ? (
            <p className="mt-1 text-fg-muted">
              {recommendationsIntro(query.data)} Worked out by Innerwave itself; nothing is sent elsewhere.
            </p>
          ) : null}
        </div>
      </div>
      <div className="mt-5">
        {/* One message and one "Try again" for the plan and the recommendations, held busy until both are read. */}
        <QueryState
          isPending={read.isPending || (pro && query.isPending)}
          error={planFailed ? read.error : pro ? query.error : null}
          isEmpty={false}
          emptyText=""
          onRetry={() => void (planFailed ? read.refetch() : query.refetch())}
          what={planFailed ? 'your plan' : 'the recommendations'}
        >
          {pro ? (
            query.data ? (
              <RecommendationList data={query.data} />
            ) : null
          ) : (
            <div className="flex flex-col gap-4 rounded-2xl border border-dashed border-line p-5">
              <p className="text-fg-muted">
                With Pro, Innerwave itself ranks programs, affirmations, tracks and messages for you from your goals,
                your own words and what you listen to, each with the reason.
              </p>
              <div>
                <PlanLock feature="recommendations" what="Personal recommendations" label="See recommendations" />
              </div>
            </div>
          )}
        </QueryState>
      </div>
    </section>
  );
}

/**
 * What answering the onboarding leads to here, said before it is answered: a program only for the goals one is
 * about, named from the programs (a goal none is about, Creativity say, gets none), and on Pro the recommendations.
 */
function WhatGoalsLeadTo({ programs, pro }: { programs: readonly ProgramSummary[]; pro: boolean }) {
  const served = goalsWithAProgram(programs).map((goal) => goal.label);
  return (
    <>
      {served.length > 0
        ? `A program is suggested here when you choose a goal one is about: ${new Intl.ListFormat('en', { type: 'disjunction' }).format(served)}.`
        : null}
      {pro ? `${served.length > 0 ? ' ' : ''}Your goals also rank your recommendations.` : null}
    </>
  );
}

/**
 * The signed-in part of the portal hub (docs/product/screens.md#portal-home): the onboarding's
 * invitation or the program that suits the chosen goal, a reminder when one is due, and the
 * recommendations (Pro) or what they are (other plans).
 */
export function HubGuidance() {
  const onboarding = useQuery(onboardingQuery());
  const programs = useQuery(programsQuery());
  const practice = useQuery(practiceQuery());
  const goals = onboarding.data?.goals ?? [];
  const suggestion = suggestedProgram(goals, programs.data ?? [], onboarding.data?.session_minutes ?? null);
  // Goals no program serves are named, once the programs are known: on the programs card when none is served
  // (decision 108), and under a suggestion for another goal, so a goal chosen is never passed over in silence (122).
  const served = new Set(goalsWithAProgram(programs.data ?? []).map((goal) => goal.id));
  const unserved = programs.data ? goals.filter((goal) => !served.has(goal)).map(goalLabel) : [];
  const noProgramAbout =
    unserved.length > 0
      ? `No program is about ${new Intl.ListFormat('en', { type: 'disjunction' }).format(unserved)} yet.`
      : null;
  // Pro's line is said only once the plan is read as Pro (decision 124).
  const pro = usePlan().has('recommendations') === true;
  return (
    <section aria-labelledby="for-you-title" className="mt-12 flex flex-col gap-4">
      <h2 id="for-you-title" className="text-2xl font-semibold tracking-tight">
        For you
      </h2>
      {reminderDue(practice.data) ? (
        <p role="status" className="flex items-center gap-3 rounded-2xl border border-line bg-surface-raised px-5 py-4">
          <BellRing aria-hidden className="h-5 w-5 shrink-0 text-link" />
          <span>
            Your reminder: a few quiet minutes, whenever suits you today.{' '}
            <Link to={paths.programs} className="text-link underline underline-offset-4">
              Open a program
            </Link>
          </span>
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        {onboardingPending(onboarding.data) ? (
          <div className={card}>
            <div className="flex items-start gap-4">
              <IconBadge icon={Compass} size="md" />
              <div>
                <h3 className="text-lg font-semibold">Where would you like to start?</h3>
                <p className="mt-1 text-fg-muted">
                  Tell us your goals in three short questions.{' '}
                  {programs.data ? <WhatGoalsLeadTo programs={programs.data} pro={pro} /> : null}
                </p>
                <Button asChild size="sm" className="mt-4">
                  <Link to={paths.welcome}>Set up your practice</Link>
                </Button>
              </div>
            </div>
          </div>
        ) : suggestion ? (
          <div className={card} data-testid="suggested-program">
            <p className="text-sm font-medium text-link">Because you chose {goalLabel(suggestion.goal)}</p>
            <h3 className="mt-1 text-lg font-semibold">{suggestion.program.title}</h3>
            <p className="text-sm text-fg-muted">
              {suggestion.program.day_count} {suggestion.program.day_count === 1 ? 'day' : 'days'} ·{' '}
              {minutesRange(suggestion.program.minutes)}
            </p>
            <p className="mt-1 text-fg-muted">{suggestion.program.summary}</p>
            {noProgramAbout ? <p className="mt-2 text-sm text-fg-muted">{noProgramAbout}</p> : null}
            <OpenProgram program={suggestion.program} />
          </div>
        ) : (
          <div className={card}>
            <h3 className="text-lg font-semibold">Programs</h3>
            <p className="mt-1 text-fg-muted">
              {noProgramAbout ? `${noProgramAbout} ` : null}A few days of short sessions, each with a theme. Start any,
              stop any time.
            </p>
            <Button asChild size="sm" variant="secondary" className="mt-4">
              <Link to={paths.programs}>See the programs</Link>
            </Button>
          </div>
        )}
        <div className={card}>
          <h3 className="text-lg font-semibold">Your practice</h3>
          <p className="mt-1 text-fg-muted">
            {practice.data
              ? `${minutesHeardText(weekHeard(practice.data.week))} in the last seven days.`
              : 'How long you listened, and your last sessions.'}
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button asChild size="sm" variant="secondary">
              <Link to={paths.practice}>Your practice</Link>
            </Button>
            <Button asChild size="sm" variant="ghost">
              <Link to={paths.programs}>All programs</Link>
            </Button>
          </div>
        </div>
      </div>
      <RecommendationsCard />
    </section>
  );
}
