import { SupportForm } from '@web/features/support/components/support-form';
import { SupportPage } from '../portal-pages';

export function Component() {
  return (
    <SupportPage>
      <div className="rounded-2xl border border-line bg-surface-raised p-4 sm:p-6">
        <SupportForm />
      </div>
    </SupportPage>
  );
}
