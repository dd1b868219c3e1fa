import { PageTitle } from '@web/components/page-title';
import { MessagesPanel } from '@web/features/admin/components/messages-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Messages" className="sr-only">
        Messages
      </PageTitle>
      <MessagesPanel />
    </>
  );
}
