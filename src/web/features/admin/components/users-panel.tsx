import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Search } from 'lucide-react';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import type { AdminBilling, AdminUser, AdminUserUpdate } from '@shared/contract';
import { accountStatus, EMAIL_MAX_LENGTH, subscriptionEnded } from '@shared/contract/plain';
import { formatMoney } from '@shared/numbers';
import { Input } from '@web/components/ui/input';
import { Button } from '@web/components/ui/button';
import { describeError } from '@web/lib/change';
import { adminUsersQuery, useUpdateAdminUser } from '../api/users';
import { QueryState } from '@web/components/ui/query-state';
import { panelClass } from './states';
import { formatDate } from '@web/lib/dates';

/** The Stripe side of a user's plan, as staff need it to answer a billing question. */
export const PLAN_OVERRIDE_NOTE =
  'A plan set here holds until the next billing event from Stripe (a renewal, a change, a failed payment or a cancellation), which sets the plan the subscription pays for.';
const UNTIL_NEXT_EVENT = 'It holds until the next billing event from Stripe.';

/** A second live subscription (two Checkouts paid at the same moment) and what the webhook did with it. */
export function secondSubscriptionText(second: AdminBilling['second_subscriptions'][number]): string {
  if (second.failure)
    return `Second subscription still bills: Stripe refused (${second.failure}). Cancel and refund it at Stripe.`;
  if (!second.settled_at)
    return 'Second subscription still bills: being cancelled and refunded (Stripe sends the event again).';
  const when = formatDate(second.settled_at);
  return second.refunded_amount && second.currency
    ? `Second subscription cancelled and ${formatMoney(second.refunded_amount, second.currency)} refunded on ${when}.`
    : `Second subscription cancelled on ${when} (it had charged nothing).`;
}

function SecondSubscriptionLine({ second }: { second: AdminBilling['second_subscriptions'][number] }) {
  const open = !second.settled_at;
  return (
    <p className="text-sm text-fg-muted">
      <span className={open ? 'text-danger' : undefined}>{secondSubscriptionText(second)}</span>
      <code className="ml-2 rounded bg-fg/10 px-1.5 py-0.5 text-xs break-all select-all">{second.subscription_id}</code>
    </p>
  );
}

function BillingLine({ billing }: { billing: AdminBilling }) {
  if (!billing.stripe_customer_id && !billing.status) return <p className="text-sm text-fg-muted">No Stripe billing</p>;
  const parts = [
    billing.status ? `Stripe: ${billing.status.replace(/_/g, ' ')}` : 'Stripe: no subscription',
    billing.past_due ? 'payment failed' : null,
    // An ended subscription neither renews nor ends again.
    billing.current_period_end && !subscriptionEnded(billing.status)
      ? `${billing.cancel_at_period_end ? 'ends' : 'renews'} ${formatDate(billing.current_period_end)}`
      : null,
  ].filter(Boolean);
  return (
    <>
      <p className="text-sm text-fg-muted">
        <span className={billing.past_due ? 'text-danger' : undefined}>{parts.join(' · ')}</span>
        {[billing.stripe_customer_id, billing.stripe_subscription_id].map((id) =>
          id ? (
            <code key={id} className="ml-2 rounded bg-fg/10 px-1.5 py-0.5 text-xs break-all select-all">
              {id}
            </code>
          ) : null,
        )}
      </p>
      {billing.second_subscriptions.map((second) => (
        <SecondSubscriptionLine key={second.subscription_id} second={second} />
      ))}
    </>
  );
}

function UserRow({
  user,
  onUpdate,
  busy,
}: {
  user: AdminUser;
  onUpdate: (body: AdminUserUpdate) => void;
  busy: boolean;
}) {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium">
          {user.email}
          {user.is_staff ? <span className="ml-2 rounded-full bg-accent/15 px-2 py-0.5 text-xs">staff</span> : null}
        </p>
        <p className="text-sm wrap-anywhere text-fg-muted">
          {name ? `${name} · ` : ''}joined {formatDate(user.date_joined)} · {accountStatus(user, formatDate)}
        </p>
        <BillingLine billing={user.billing} />
      </div>
      <div className="flex items-center gap-2">
        <label className="sr-only" htmlFor={`plan-${user.id}`}>
          Plan of {user.email}
        </label>
        <select
          id={`plan-${user.id}`}
          value={user.subscription_plan}
          disabled={busy}
          onChange={(event) => onUpdate({ subscription_plan: event.target.value as SubscriptionPlan })}
          className="h-9 rounded-xl border border-line bg-surface-raised px-3 text-sm capitalize"
        >
          {SUBSCRIPTION_PLANS.map((plan) => (
            <option key={plan} value={plan}>
              {plan}
            </option>
          ))}
        </select>
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => onUpdate({ is_active: !user.is_active })}>
          {user.is_active ? 'Deactivate' : 'Activate'}
        </Button>
      </div>
    </li>
  );
}

/** Users: search by e-mail, see their billing, set the plan (until Stripe's next event), activate or deactivate. */
export function UsersPanel() {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const query = useQuery(adminUsersQuery(deferred));
  const update = useUpdateAdminUser();
  const users = query.data?.results ?? [];
  return (
    <section className={panelClass} aria-labelledby="users-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="users-heading" className="text-xl font-semibold">
          Users
        </h2>
        <div className="relative sm:w-80">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-fg-muted"
          />
          <Input
            type="search"
            aria-label="Search by e-mail"
            placeholder="Search by e-mail"
            maxLength={EMAIL_MAX_LENGTH}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="pl-9"
          />
        </div>
      </div>
      <p className="mt-3 text-sm text-fg-muted">{PLAN_OVERRIDE_NOTE}</p>
      <div className="mt-4">
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={users.length === 0}
          emptyText={deferred ? `No user's e-mail contains "${deferred}".` : 'No users yet.'}
          onRetry={() => void query.refetch()}
        >
          <ul className="divide-y divide-line">
            {users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                busy={update.isPending && update.variables.id === user.id}
                onUpdate={(body) =>
                  update.mutate(
                    { id: user.id, body },
                    {
                      onSuccess: (changed) =>
                        toast.success(
                          body.subscription_plan
                            ? `${changed.email} is now on the ${changed.subscription_plan} plan.${
                                changed.billing.stripe_subscription_id ? ' ' + UNTIL_NEXT_EVENT : ''
                              }`
                            : changed.is_active
                              ? `${changed.email} is now active.`
                              : `${changed.email} is deactivated and signed out everywhere.`,
                        ),
                      onError: (error) => toast.error(describeError(error)),
                    },
                  )
                }
              />
            ))}
          </ul>
          {query.data && query.data.count > users.length ? (
            <p className="mt-3 text-sm text-fg-muted">
              Showing {users.length} of {query.data.count}; search to narrow the list.
            </p>
          ) : null}
        </QueryState>
      </div>
    </section>
  );
}
