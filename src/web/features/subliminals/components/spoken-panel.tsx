import { lazy, Suspense } from 'react';
import { PlanLock } from '@web/components/plan-lock';
import { Spinner } from '@web/components/ui/spinner';
import { usePlan } from '@web/lib/plan';

// The controls (and with them the voice loop, the export and the speech client) load only for a
// plan that includes them; the speech engine itself loads on the first "Speak the playlist".
const SpokenControls = lazy(() => import('./spoken-controls'));

/**
 * Spoken affirmations (Pro, docs/product/screens.md#spoken-affirmations): the playlist spoken by
 * eSpeak NG in the browser, one message after another with a pause, looped, as the sound engine's
 * voice layer, at a subliminal level under the other layers. Also where the session is exported.
 */
export function SpokenPanel({ messages }: { messages: readonly string[] }) {
  const spoken = usePlan().has('spokenSubliminals');
  return (
    <section
      aria-labelledby="spoken-heading"
      className="flex flex-col gap-4 rounded-3xl border border-line bg-surface-raised p-5 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <h2 id="spoken-heading" className="text-lg font-semibold">
          Spoken affirmations
        </h2>
        <p className="text-sm text-fg-muted">
          Your playlist read aloud, one message after another with a pause, over and over: by a voice made in your
          browser, or in your own voice, recorded here. It plays along with the music and tones you choose.
        </p>
      </div>
      {spoken === undefined ? null : spoken ? (
        <Suspense fallback={<Spinner label="Loading the voice controls" className="py-6" />}>
          <SpokenControls messages={messages} />
        </Suspense>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <PlanLock feature="spokenSubliminals" what="Spoken affirmations" />
          <PlanLock feature="audioExport" what="Audio export" />
        </div>
      )}
    </section>
  );
}
