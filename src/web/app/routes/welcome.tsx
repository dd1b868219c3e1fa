import { PageTitle } from '@web/components/page-title';
import { OnboardingPage } from '@web/features/guidance/components/onboarding-page';

export function Component() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <PageTitle title="Set up your practice">Set up your practice</PageTitle>
        <p className="text-fg-muted">
          Three short questions, so the portal can suggest where to start. Change them any time.
        </p>
      </div>
      <OnboardingPage />
    </section>
  );
}
