import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { AdminSupportRequest } from '@shared/contract';
import { CheckboxField } from '@web/components/ui/input';
import { QueryState } from '@web/components/ui/query-state';
import { describeError, failureOver, mayPassWhenTriedAgain, toastFailure } from '@web/lib/change';
import { keyboardToNeighbourOnceGone, keyboardToWhatComesBack } from '@web/lib/keyboard-after-removal';
import { clsx } from 'clsx';
import { adminSupportQuery, useSetSupportHandled } from '../api/support';
import { panelClass } from './states';
import { formatDateTime } from '@web/lib/dates';

/** A request's "Handled" box. */
const handledBoxId = (id: number) => `support-handled-${id}`;

function RequestItem({
  request,
  busy,
  onHandled,
}: {
  request: AdminSupportRequest;
  busy: boolean;
  /** `control`: the box ticked, where the keyboard was. */
  onHandled: (handled: boolean, control: HTMLElement) => Promise<void>;
}) {
  const handled = request.handled_at !== null;
  const toggleId = handledBoxId(request.id);
  return (
    <li className={clsx('flex flex-col gap-3 py-4', handled && 'opacity-70')}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h3 className="break-words font-medium">
            {request.priority ? (
              <span className="mr-2 inline-block rounded-full bg-accent/15 px-2 py-0.5 align-middle text-xs font-semibold text-fg">
                Priority
              </span>
            ) : null}
            #{request.id} · <bdi>{request.subject}</bdi>
          </h3>
          <p className="break-words text-sm text-fg-muted">
            <a href={`mailto:${request.email}`} className="text-link underline-offset-4 hover:underline">
              {request.email}
            </a>{' '}
            · <span className="capitalize">{request.plan}</span> · {formatDateTime(request.created_at)}
          </p>
        </div>
        <CheckboxField
          id={toggleId}
          label={
            <>
              Handled
              <span className="sr-only"> #{request.id}</span>
            </>
          }
          checked={handled}
          busy={busy}
          // A failure is said by its toast.
          onChange={(event) => void onHandled(event.target.checked, event.target).catch(() => undefined)}
          className="shrink-0"
        />
      </div>
      <p dir="auto" className="whitespace-pre-wrap break-words text-sm">
        {request.message}
      </p>
      {handled ? <p className="text-xs text-fg-muted">Handled {formatDateTime(request.handled_at!)}</p> : null}
    </li>
  );
}

/** Support requests from the portal's form: newest first, priority flagged, marked handled here. */
export function SupportPanel() {
  const [openOnly, setOpenOnly] = useState(true);
  const query = useQuery(adminSupportQuery(openOnly));
  const setHandled = useSetSupportHandled();
  const requests = query.data?.results ?? [];
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section className={panelClass} aria-labelledby="support-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 ref={heading} id="support-heading" tabIndex={-1} className="card-heading outline-none">
            Support requests
          </h2>
          {query.data ? (
            <p className="text-sm text-fg-muted">
              {query.data.open === 0 ? 'None open.' : `${query.data.open} open.`} Reply from your mail: the request
              mail’s Reply-To is the sender.
            </p>
          ) : null}
        </div>
        <CheckboxField
          id="support-open-only"
          label="Open only"
          checked={openOnly}
          onChange={(event) => setOpenOnly(event.target.checked)}
        />
      </div>
      <div className="mt-4">
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={requests.length === 0}
          emptyText={openOnly ? 'No open support requests.' : 'No support requests yet.'}
          onRetry={() => void query.refetch()}
        >
          <ul className="divide-y divide-line">
            {requests.map((request) => (
              <RequestItem
                key={request.id}
                request={request}
                busy={setHandled.isPending && setHandled.variables.id === request.id}
                onHandled={function mark(
                  handled: boolean,
                  control?: HTMLElement,
                  undo?: { handOver: () => void },
                ): Promise<void> {
                  // Under "Open only" a request marked handled leaves the list: the keyboard goes to the next one's
                  // box, or, none open left, to the list's heading (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
                  const moveKeyboard =
                    handled && openOnly
                      ? keyboardToNeighbourOnceGone(
                          control ?? null,
                          'input[type="checkbox"]',
                          undefined,
                          () => heading.current,
                        )
                      : (undo?.handOver ?? null);
                  // Settled once the lists are read again (useSetSupportHandled awaits it): the request has left, or
                  // come back.
                  // An Undo's change has no name of its own: its toast comes back instead (decision 150).
                  const of = undo ? undefined : `${handled ? 'handle' : 'reopen'} request ${request.id}`;
                  return setHandled.mutateAsync({ id: request.id, handled }).then(
                    () => {
                      moveKeyboard?.();
                      if (of !== undefined) failureOver(of);
                      if (handled)
                        // A slip that took the request off the list is undone here.
                        toast.success(`Request #${request.id} is handled.`, {
                          action: {
                            label: 'Undo',
                            // The request's box takes the keyboard once the list is read again (decision 131), out of
                            // the toaster by then (app/themed-toaster.tsx); failed offline, the toast comes back for
                            // another press (decision 144).
                            onClick: () =>
                              mark(false, undefined, {
                                handOver: keyboardToWhatComesBack(() =>
                                  document.getElementById(handledBoxId(request.id)),
                                ),
                              }),
                          },
                        });
                      else toast.success(`Request #${request.id} is open again.`);
                    },
                    (error: unknown) => {
                      // An Undo's failure that may pass is said by its toast coming back.
                      if (!(undo && mayPassWhenTriedAgain(error))) toastFailure(error, describeError(error), of);
                      throw error;
                    },
                  );
                }}
              />
            ))}
          </ul>
          {query.data && query.data.count > requests.length ? (
            <p className="mt-3 text-sm text-fg-muted">
              Showing the newest {requests.length} of {query.data.count}.
            </p>
          ) : null}
        </QueryState>
      </div>
    </section>
  );
}
