import { useQuery } from '@tanstack/react-query';
import { profileQuery } from '@web/features/profile/api/profile';
import { ProfileView } from '@web/features/profile/components/profile-view';
import { GoalsSummary } from '@web/features/guidance/components/goals-summary';
import { ProfilePage } from '../portal-pages';
import type { PageQueries } from '../page-data';

export const pageQueries: PageQueries = () => [profileQuery()];

export function Component() {
  // The goals card comes once the profile above it is shown: before, it would be pushed down the page.
  const profile = useQuery(profileQuery());
  return (
    <ProfilePage>
      <ProfileView />
      {profile.isSuccess ? <GoalsSummary /> : null}
    </ProfilePage>
  );
}
