import { PageTitle } from '@web/components/page-title';
import { PracticeView } from '@web/features/guidance/components/practice-view';

export function Component() {
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <PageTitle title="Your practice">Your practice</PageTitle>
        <p className="max-w-2xl text-fg-muted">
          What you listened to, and for how long. Only you see it, and you can delete it whenever you like.
        </p>
      </div>
      <PracticeView />
    </section>
  );
}
