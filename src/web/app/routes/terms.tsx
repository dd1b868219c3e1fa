import { TermsPage } from '@web/features/legal/components/terms-page';

export function Component() {
  return <TermsPage />;
}
