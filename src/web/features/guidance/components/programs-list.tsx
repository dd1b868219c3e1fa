import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import type { ProgramSummary } from '@shared/contract';
import { goalLabel } from '@shared/contract/portal-plain';
import { QueryState } from '@web/components/ui/query-state';
import { programsQuery } from '../api/guidance';
import { programPath } from '../lib/paths';
import { minutesRange, ProgramProgressBar, useProgramStarted } from './program-progress';

/**
 * A program as one link to its page, its title a heading: a screen reader lists the programs among the headings
 * and goes from one to the next, where the cards had none under the page's title. The link's name stays the card's
 * text, which is what it shows (WCAG 2.5.3).
 */
function ProgramCard({ program }: { program: ProgramSummary }) {
  const next = program.progress.next_day;
  const started = useProgramStarted(program.progress);
  return (
    <li>
      <Link
        to={programPath(program.slug)}
        className="group flex h-full flex-col gap-4 rounded-3xl border border-line bg-surface-raised p-6 transition-shadow hover:shadow-lg"
      >
        <div className="flex flex-col gap-1">
          <h2 className="flex items-center gap-2 card-heading">
            {program.title}
            <ArrowRight aria-hidden className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
          </h2>
          <span className="text-sm text-fg-muted">
            {program.day_count} {program.day_count === 1 ? 'day' : 'days'} · {minutesRange(program.minutes)}
            {program.goals.length ? ` · ${program.goals.map(goalLabel).join(', ')}` : ''}
          </span>
        </div>
        <span className="text-fg-muted">{program.summary}</span>
        <div className="mt-auto flex flex-col gap-3">
          <ProgramProgressBar progress={program.progress} dayCount={program.day_count} />
          <span className="text-sm font-medium text-link">
            {next === null ? 'Look back at the days' : started ? `Continue with day ${next}` : 'Begin with day 1'}
          </span>
        </div>
      </Link>
    </li>
  );
}

/** /programs (docs/product/screens.md#programs): every program with the person's progress. */
export function ProgramsList() {
  const query = useQuery(programsQuery());
  return (
    <QueryState
      isPending={query.isPending}
      error={query.error}
      isEmpty={query.data?.length === 0}
      emptyText="There are no programs yet."
      onRetry={() => void query.refetch()}
    >
      <ul className="grid gap-4 md:grid-cols-2">
        {query.data?.map((program) => (
          <ProgramCard key={program.slug} program={program} />
        ))}
      </ul>
    </QueryState>
  );
}
