import { PageTitle } from '@web/components/page-title';
import { ProfileView } from '@web/features/profile/components/profile-view';
import { GoalsSummary } from '@web/features/guidance/components/goals-summary';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Profile">Profile</PageTitle>
        <p className="text-fg-muted">Your name, picture and plan, and your account.</p>
      </div>
      <ProfileView />
      <GoalsSummary />
    </section>
  );
}
