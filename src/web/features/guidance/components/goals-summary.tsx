import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { goalLabel } from '@shared/contract/portal-plain';
import { Button } from '@web/components/ui/button';
import { paths } from '@web/lib/paths';
import { onboardingQuery } from '../api/guidance';

/**
 * The profile's "Goals and preferences" card: the onboarding's answers and a way to change them. Its heading and text
 * are the sizes of the profile's other cards (Plan & billing, Account) that it sits under.
 */
export function GoalsSummary() {
  const { data } = useQuery(onboardingQuery());
  const answered = data?.completed_at != null && !data.skipped;
  const goals = data?.goals.map(goalLabel).join(', ') ?? '';
  // One's own words are a typed text: in a box of their own for direction
  // (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md).
  const ownWords = data?.free_text ? (
    <>
      {goals ? ', ' : ''}“<bdi>{data.free_text}</bdi>”
    </>
  ) : null;
  return (
    <section aria-labelledby="goals-title" className="rounded-3xl border border-line bg-surface-raised p-6">
      <h2 id="goals-title" className="card-heading">
        Goals and preferences
      </h2>
      {answered ? (
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">Goals</dt>
          <dd className="text-fg-muted">
            {goals || ownWords ? (
              <>
                {goals}
                {ownWords}
              </>
            ) : (
              'None chosen'
            )}
          </dd>
          <dt className="font-medium">Headphones</dt>
          <dd className="text-fg-muted">{data.headphones === null ? 'Not said' : data.headphones ? 'Yes' : 'No'}</dd>
          <dt className="font-medium">Session length</dt>
          <dd className="text-fg-muted">{data.session_minutes ? `${data.session_minutes} minutes` : 'Not said'}</dd>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-fg-muted">
          Tell us your goals, whether you use headphones and how long you like to listen, and the portal suggests where
          to start.
        </p>
      )}
      <div className="mt-5 flex flex-wrap gap-3">
        <Button asChild variant="secondary" size="sm">
          <Link to={`${paths.welcome}?from=${encodeURIComponent(paths.profile)}`}>
            {answered ? 'Change your answers' : 'Answer three questions'}
          </Link>
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.practice}>Your practice</Link>
        </Button>
      </div>
    </section>
  );
}
