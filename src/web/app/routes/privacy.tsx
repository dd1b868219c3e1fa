import { PrivacyPage } from '@web/features/legal/components/privacy-page';

export function Component() {
  return <PrivacyPage />;
}
