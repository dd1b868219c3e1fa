import { lazy, Suspense, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PlanLock } from '@web/components/plan-lock';
import { Spinner } from '@web/components/ui/spinner';
import { usePlan } from '@web/lib/plan';
import { ownVoiceQuery } from '../api/own-voice';

// The controls (and with them the voice loop, the export and the speech client) load only for a
// plan that includes them; the speech engine itself loads on the first "Speak the playlist".
const SpokenControls = lazy(() => import('./spoken-controls'));
// Below Pro, the list of recordings kept from a Pro plan loads only for someone who has some.
const KeptVoice = lazy(() => import('./kept-voice'));

/**
 * Spoken affirmations (Pro, docs/product/screens.md#spoken-affirmations): the playlist spoken by
 * eSpeak NG in the browser, one message after another with a pause, looped, as the sound engine's
 * voice layer, at a subliminal level under the other layers. Also where the session is exported.
 * Below Pro, the locks, and the recordings of one's own voice a Pro plan left, to listen to or delete.
 */
export function SpokenPanel({ messages }: { messages: readonly string[] }) {
  const spoken = usePlan().has('spokenSubliminals');
  // Read only below Pro: the Pro controls read the recordings themselves, with the own voice chosen.
  const kept = useQuery({ ...ownVoiceQuery(), enabled: spoken === false }).data?.recordings ?? [];
  const locks = useRef<HTMLDivElement>(null);
  return (
    <section
      aria-labelledby="spoken-heading"
      className="flex flex-col gap-4 rounded-3xl border border-line bg-surface-raised p-5 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <h2 id="spoken-heading" className="card-heading">
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
        <>
          <div ref={locks} className="flex flex-wrap items-center gap-3">
            <PlanLock feature="spokenSubliminals" what="Spoken affirmations" />
            <PlanLock feature="audioExport" what="Audio export" />
          </div>
          {kept.length > 0 ? (
            <div className="flex flex-col gap-3">
              {/* Left from a Pro plan: said to be kept, so a downgrade does not read as a loss (decisions §8). */}
              <p className="text-sm text-fg-muted">Your recordings are kept: listen to them or delete them here.</p>
              <Suspense fallback={<Spinner label="Loading your recordings" className="py-6" />}>
                <KeptVoice recordings={kept} keyboardAfterLast={() => locks.current?.querySelector('button') ?? null} />
              </Suspense>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
