import { useQuery } from '@tanstack/react-query';
import { ListPlus } from 'lucide-react';
import type { MessageCategory, OwnCategory } from '@shared/contract';
import { AddForm } from '@web/components/ui/add-form';
import { Button } from '@web/components/ui/button';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { InlineEdit } from '@web/components/ui/inline-edit';
import { QueryState } from '@web/components/ui/query-state';
import type { Change } from '@web/lib/change';
import * as api from '../api/own-messages';

export const OWN_EMPTY =
  'You have no messages of your own yet. Create a category, then write the affirmations you want to see.';

function OwnCategoryCard({
  category,
  change,
  onAdd,
}: {
  category: OwnCategory;
  change: Change;
  onAdd(category: MessageCategory): void;
}) {
  return (
    <li className="rounded-2xl border border-line bg-surface-raised p-4">
      <div className="flex items-center justify-between gap-2">
        <InlineEdit
          value={category.name}
          label={`name of ${category.name}`}
          className="truncate font-medium"
          onSave={(name) => change(() => api.renameOwnCategory(category.id, name), `Renamed to ${name}.`)}
        />
        <div className="flex shrink-0 items-center gap-1">
          <Button
            size="sm"
            variant="secondary"
            disabled={category.messages.length === 0}
            onClick={() => onAdd(category)}
            aria-label={`Add ${category.name} to playlist`}
          >
            <ListPlus aria-hidden className="h-4 w-4" /> Add
          </Button>
          <ConfirmDelete
            label={`Delete ${category.name}`}
            title={`Delete "${category.name}"?`}
            description="The category and its messages are removed from your account."
            onConfirm={() => change(() => api.deleteOwnCategory(category.id), `Deleted ${category.name}.`)}
          />
        </div>
      </div>
      {category.messages.length > 0 ? (
        <ul className="mt-2 divide-y divide-line">
          {category.messages.map((message) => (
            <li key={message.id} className="flex items-center justify-between gap-2 py-1.5">
              <InlineEdit
                value={message.message_text}
                label={`message "${message.message_text}"`}
                className="text-sm"
                onSave={(text) => change(() => api.editOwnMessage(message.id, text), 'Message saved.')}
              />
              <ConfirmDelete
                label={`Delete the message "${message.message_text}"`}
                title="Delete this message?"
                description={message.message_text}
                onConfirm={() => change(() => api.deleteOwnMessage(message.id), 'Message deleted.')}
              />
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-3">
        <AddForm
          label={`New message in ${category.name}`}
          action={`Add the message to ${category.name}`}
          placeholder="I am…"
          onAdd={(text) => change(() => api.addOwnMessage(category.id, text), 'Message added.')}
        />
      </div>
    </li>
  );
}

/** The person's own categories and messages, kept with their account; each can join the playlist. */
export function MyMessagesPanel({ onAdd }: { onAdd(category: MessageCategory): void }) {
  const query = useQuery(api.ownCategoriesQuery());
  const change = api.useOwnMessagesChange();
  return (
    <section aria-labelledby="my-messages-heading" className="flex flex-col gap-3">
      <h2 id="my-messages-heading" className="text-lg font-semibold">
        My messages
      </h2>
      <AddForm
        label="New category of your own"
        action="Create the category"
        placeholder="New category"
        onAdd={(name) => change(() => api.createOwnCategory(name), `Created ${name}.`)}
      />
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={query.data?.length === 0}
        emptyText={OWN_EMPTY}
        onRetry={() => void query.refetch()}
      >
        <ul className="flex flex-col gap-3">
          {query.data?.map((category) => (
            <OwnCategoryCard key={category.id} category={category} change={change} onAdd={onAdd} />
          ))}
        </ul>
      </QueryState>
    </section>
  );
}
