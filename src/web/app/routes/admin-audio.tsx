import { PageTitle } from '@web/components/page-title';
import { AudioPanel } from '@web/features/admin/components/audio-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Audio" className="sr-only">
        Audio
      </PageTitle>
      <AudioPanel />
    </>
  );
}
