import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight, Search } from 'lucide-react';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import { planName } from '@shared/plans';
import type { AdminBilling, AdminUser, AdminUserUpdate } from '@shared/contract';
import { accountStatus, EMAIL_MAX_LENGTH, isolated, subscriptionEnded } from '@shared/contract/plain';
import { formatInteger, formatMoney } from '@shared/numbers';
import { CheckboxField, Input } from '@web/components/ui/input';
import { Button } from '@web/components/ui/button';
import { ConfirmDeleteDialog, type ConfirmText } from '@web/components/ui/confirm-delete';
import { describeError, failureOver, toastFailure } from '@web/lib/change';
import { keyboardToNeighbourOnceGone } from '@web/lib/keyboard-after-removal';
import { adminUsersQuery, useCancelAdminUserEmailChange, useUpdateAdminUser } from '../api/users';
import { QueryState } from '@web/components/ui/query-state';
import { panelClass } from './states';
import { formatDate, formatDateTime } from '@web/lib/dates';
import { useSession } from '@web/lib/session';

/** The Stripe side of a user's plan, as staff need it to answer a billing question. */
export const PLAN_OVERRIDE_NOTE =
  'A plan set here holds until the next billing event from Stripe (a renewal, a change, a failed payment or a cancellation), which sets the plan the subscription pays for.';
const UNTIL_NEXT_EVENT = 'It holds until the next billing event from Stripe.';
/** A row's change by what it changes (its plan, or active or not): its failure goes once that change works (decision 150). */
const userUpdate = (id: number, body: AdminUserUpdate) => `update ${Object.keys(body).sort().join(' ')} of ${id}`;
/** The `deactivated_billing` reason of a user's `attention`: Stripe still charges someone who cannot sign in. */
export const DEACTIVATED_BILLING_TEXT =
  'Deactivated while the subscription still bills: cancel it at Stripe, or activate the account again.';

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

/** A line of text followed by Stripe ids: an id that does not fit goes whole to the next line. */
const ID_LINE = 'flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-fg-muted';

/**
 * A Stripe id (cus_…, sub_…) to copy into Stripe's dashboard, on one line: broken mid-way it read as two
 * values. One longer than the row is cut, its whole text still selected and copied.
 */
function StripeId({ id }: { id: string }) {
  return (
    <code title={id} className="max-w-full truncate rounded bg-fg/10 px-1.5 py-0.5 text-xs select-all">
      {id}
    </code>
  );
}

function SecondSubscriptionLine({ second }: { second: AdminBilling['second_subscriptions'][number] }) {
  const open = !second.settled_at;
  return (
    <p className={ID_LINE}>
      <span className={open ? 'text-danger' : undefined}>{secondSubscriptionText(second)}</span>
      <StripeId id={second.subscription_id} />
    </p>
  );
}

function BillingLine({ billing, attention }: { billing: AdminBilling; attention: AdminUser['attention'] }) {
  if (!billing.stripe_customer_id && !billing.status) return <p className="text-sm text-fg-muted">No Stripe billing</p>;
  const paymentFailed = attention.includes('payment_failed');
  const parts = [
    billing.status ? `Stripe: ${billing.status.replace(/_/g, ' ')}` : 'Stripe: no subscription',
    paymentFailed ? 'payment failed' : null,
    // An ended subscription neither renews nor ends again.
    billing.current_period_end && !subscriptionEnded(billing.status)
      ? `${billing.cancel_at_period_end ? 'ends' : 'renews'} ${formatDate(billing.current_period_end)}`
      : null,
  ].filter(Boolean);
  return (
    <>
      <p className={ID_LINE}>
        <span className={paymentFailed ? 'text-danger' : undefined}>{parts.join(' · ')}</span>
        {[billing.stripe_customer_id, billing.stripe_subscription_id].map((id) =>
          id ? <StripeId key={id} id={id} /> : null,
        )}
      </p>
      {billing.second_subscriptions.map((second) => (
        <SecondSubscriptionLine key={second.subscription_id} second={second} />
      ))}
      {attention.includes('deactivated_billing') ? (
        <p className="text-sm text-danger">{DEACTIVATED_BILLING_TEXT}</p>
      ) : null}
    </>
  );
}

/** What the toast says once staff cancelled a person's waiting change of address. */
export const emailChangeCancelledText = (email: string, newEmail: string) =>
  `The change of ${isolated(email)} to ${isolated(newEmail)} was cancelled; its link no longer works.`;

/**
 * The change of e-mail address the person asked for and has not confirmed yet (docs/decisions/061-…): where the
 * link went and when, and a cancel that refuses its links, as the person's own does.
 */
function WaitingEmailChange({
  user,
  change,
  busy,
  onCancel,
}: {
  user: AdminUser;
  change: NonNullable<AdminUser['pending_email_change']>;
  busy: boolean;
  onCancel: (control: HTMLButtonElement) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1">
      <p className="text-sm wrap-anywhere text-fg-muted">
        Asked to change the e-mail to <bdi className="text-fg">{change.new_email}</bdi> on{' '}
        <span className="whitespace-nowrap">{formatDateTime(change.requested_at)}</span>; the link is not opened yet.
      </p>
      <Button
        variant="secondary"
        size="sm"
        busy={busy}
        aria-label={`Cancel the change of e-mail of ${user.email}`}
        onClick={(event) => onCancel(event.currentTarget)}
      >
        Cancel the change
      </Button>
    </div>
  );
}

function UserRow({
  user,
  onUpdate,
  onCancelEmailChange,
  busy,
  isSelf,
}: {
  user: AdminUser;
  /** Resolves once the list shows the change; rejects (said by a toast) when it was refused. */
  onUpdate: (body: AdminUserUpdate) => Promise<unknown>;
  onCancelEmailChange: (control: HTMLButtonElement) => void;
  busy: boolean;
  /** The staff member reading the list: the server refuses to deactivate one's own account, so it is not offered. */
  isSelf: boolean;
}) {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  // A plan picked is only a choice until "Set plan": a select changes with an arrow key as it is passed through,
  // and each change was at once the person's plan (docs/decisions/101-a-staff-members-day-walked.md).
  const [choice, setChoice] = useState<SubscriptionPlan | null>(null);
  const shownPlan = choice ?? user.subscription_plan;
  const planSelect = useRef<HTMLSelectElement>(null);
  const [asking, setAsking] = useState<ConfirmText | null>(null);
  const stillBills = Boolean(user.billing.stripe_subscription_id) && !subscriptionEnded(user.billing.status);

  async function setPlan() {
    if (choice === null) return;
    try {
      await onUpdate({ subscription_plan: choice });
    } catch {
      return; // the toast says why; the choice stays, to set again or change
    }
    setChoice(null);
    // The button goes with the choice: the keyboard goes back to the plan it set.
    planSelect.current?.focus();
  }

  function activateOrAsk() {
    if (!user.is_active) {
      void onUpdate({ is_active: true }).catch(() => undefined);
      return;
    }
    setAsking({
      title: (
        <>
          Deactivate <bdi>{user.email}</bdi>?
        </>
      ),
      description: `They are signed out everywhere at once and cannot sign in until the account is activated again.${
        stillBills ? ' Their Stripe subscription keeps billing: cancel it at Stripe if they are leaving.' : ''
      }`,
      action: 'Deactivate',
      doing: 'Deactivating…',
      onConfirm: () => onUpdate({ is_active: false }),
    });
  }
  return (
    // From sm a row of the list's columns (a subgrid): each control keeps its column whatever the row offers.
    <li className="flex flex-col gap-3 py-3 sm:col-span-4 sm:grid sm:grid-cols-subgrid sm:items-center">
      <div className="min-w-0">
        {/* The badges go under a long e-mail rather than be cut off with it. */}
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
          <span className="max-w-full wrap-anywhere">{user.email}</span>
          {user.is_staff ? <span className="rounded-full bg-accent/15 px-2 py-0.5 text-xs">staff</span> : null}
          {isSelf ? <span className="rounded-full bg-fg/10 px-2 py-0.5 text-xs">you</span> : null}
          {user.attention.length ? (
            <span className="rounded-full bg-danger/15 px-2 py-0.5 text-xs whitespace-nowrap text-danger">
              Needs attention
            </span>
          ) : null}
        </p>
        <p className="text-sm wrap-anywhere text-fg-muted">
          {name ? (
            <>
              <bdi>{name}</bdi> ·{' '}
            </>
          ) : null}
          joined {formatDate(user.date_joined)} · {accountStatus(user, formatDate)}
        </p>
        {user.pending_email_change ? (
          <WaitingEmailChange
            user={user}
            change={user.pending_email_change}
            busy={busy}
            onCancel={onCancelEmailChange}
          />
        ) : null}
        <BillingLine billing={user.billing} attention={user.attention} />
      </div>
      {/* On a phone two columns of the row's own: the plan and "Set plan" (room kept), (De)activate under the plan
          at its width; from sm the list's columns. */}
      <div className="grid grid-cols-[minmax(0,1fr)_5.5rem] items-center gap-2 sm:col-span-3 sm:grid-cols-subgrid">
        <label className="sr-only" htmlFor={`plan-${user.id}`}>
          Plan of {user.email}
        </label>
        <select
          ref={planSelect}
          id={`plan-${user.id}`}
          value={shownPlan}
          onChange={(event) => {
            const plan = event.target.value as SubscriptionPlan;
            setChoice(plan === user.subscription_plan ? null : plan);
          }}
          className="col-start-1 row-start-1 h-9 rounded-xl border border-field bg-surface-raised px-3 text-sm pointer-coarse:h-11"
        >
          {SUBSCRIPTION_PLANS.map((plan) => (
            <option key={plan} value={plan}>
              {planName(plan)}
            </option>
          ))}
        </select>
        {choice !== null ? (
          <Button
            size="sm"
            aria-label={`Set plan of ${user.email} to ${choice}`}
            className="col-start-2 row-start-1"
            busy={busy}
            onClick={() => void setPlan()}
          >
            Set plan
          </Button>
        ) : null}
        {isSelf ? null : (
          <Button
            variant="secondary"
            size="sm"
            busy={busy}
            onClick={activateOrAsk}
            className="col-start-1 row-start-2 sm:col-start-3 sm:row-start-1"
          >
            {user.is_active ? 'Deactivate' : 'Activate'}
          </Button>
        )}
        <ConfirmDeleteDialog asking={asking} onClose={() => setAsking(null)} />
      </div>
    </li>
  );
}

/** A whole number from 1 of the screen's address (`?page=`, `?newest=`), or null. */
const countingOf = (value: string | null) => (value && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : null);

interface ListState {
  search: string;
  attention: boolean;
  /** A bad one reads as the first. */
  page: number;
  /** The newest user the pages hold, from the first page read: sign-ups since then shift no one. */
  newest: number | null;
  /**
   * The page next to one shown, from that page's last user (`after`) or first (`before`): someone deleted
   * meanwhile moves nobody past the page's edge, as a page number alone would.
   */
  after: number | null;
  before: number | null;
}

const listOf = (params: URLSearchParams): ListState => ({
  search: params.get('search') ?? '',
  attention: params.get('attention') === 'true',
  page: countingOf(params.get('page')) ?? 1,
  newest: countingOf(params.get('newest')),
  after: countingOf(params.get('after')),
  before: params.get('after') ? null : countingOf(params.get('before')),
});

/**
 * The list's search, filter and page, kept in the screen's address too: Back returns to the page before and a
 * link opens the same list. The boxes follow the state, not the address, which the router writes a moment
 * later (a box bound to it would undo a keystroke or a click meanwhile); Back and Forward set the state again.
 */
function useListState() {
  const [params, setParams] = useSearchParams();
  const { key } = useLocation();
  const navigation = useNavigationType();
  const [list, setList] = useState(() => listOf(params));
  const [entry, setEntry] = useState(key);
  if (entry !== key) {
    setEntry(key);
    if (navigation === 'POP') setList(listOf(params));
  }
  const show = (next: Partial<ListState>, replace = false) => {
    // A new search or filter starts at the first page, with whoever signed up since.
    const shown = { ...list, page: 1, newest: null, after: null, before: null, ...next };
    setList(shown);
    const query: Record<string, string> = {};
    if (shown.search) query.search = shown.search;
    if (shown.attention) query.attention = 'true';
    if (shown.page > 1) query.page = String(shown.page);
    if (shown.newest !== null) query.newest = String(shown.newest);
    if (shown.after !== null) query.after = String(shown.after);
    if (shown.before !== null) query.before = String(shown.before);
    // The list stays where it is on screen; the bottom pager moves to the new page's top itself.
    setParams(query, { replace, preventScrollReset: true });
  };
  return [list, show] as const;
}

function Pager({
  page,
  pages,
  label,
  onPage,
}: {
  page: number;
  pages: number;
  label: string;
  onPage: (page: number) => void;
}) {
  const step = 'gap-1 px-2.5 sm:px-3';
  return (
    <nav aria-label={label} className="flex items-center gap-1">
      <Button variant="ghost" size="icon" aria-label="First page" disabled={page <= 1} onClick={() => onPage(1)}>
        <ChevronsLeft aria-hidden className="h-4 w-4" />
      </Button>
      <Button
        variant="secondary"
        size="sm"
        className={step}
        aria-label="Previous page"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        <ChevronLeft aria-hidden className="h-4 w-4" />
        <span className="max-sm:sr-only">Previous</span>
      </Button>
      <span className="px-2 text-sm whitespace-nowrap tabular-nums">
        Page {formatInteger(page)} of {formatInteger(pages)}
      </span>
      <Button
        variant="secondary"
        size="sm"
        className={step}
        aria-label="Next page"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        <span className="max-sm:sr-only">Next</span>
        <ChevronRight aria-hidden className="h-4 w-4" />
      </Button>
      <Button variant="ghost" size="icon" aria-label="Last page" disabled={page >= pages} onClick={() => onPage(pages)}>
        <ChevronsRight aria-hidden className="h-4 w-4" />
      </Button>
    </nav>
  );
}

function emptyText(search: string, attention: boolean): string {
  if (attention) return search ? `No user needing attention matches "${search}".` : 'No user needs attention.';
  return search ? `No user's e-mail or name contains "${search}".` : 'No users yet.';
}

/**
 * Users, newest first, a page at a time: search by e-mail or name, show only those whose billing needs staff,
 * see their billing, set the plan (until Stripe's next event), activate or deactivate. The search, the filter
 * and the page are the screen's address, so Back returns to the page before and a link opens the same list.
 */
export function UsersPanel() {
  const [{ search, attention, page, newest, after, before }, show] = useListState();
  const deferred = useDeferredValue(search.trim());
  const query = useQuery(adminUsersQuery({ search: deferred, page, attention, newest, after, before }));
  const update = useUpdateAdminUser();
  const cancelEmailChange = useCancelAdminUserEmailChange();
  const session = useSession();
  const summary = useRef<HTMLParagraphElement>(null);
  const data = query.data;
  const users = data?.results ?? [];
  // Where the page shown is, as the server counted it from its rows: after a deletion a page read from a
  // cursor is not where the address's number puts it (docs/decisions/053-staff-lists-page-from-the-rows-shown.md).
  const pages = data?.pages ?? 1;
  const shownPage = data?.page ?? page;
  // A page the list no longer reaches (people matched fewer, or an old link): its last page instead.
  const pastEnd = page > 1 && data !== undefined && !query.isPlaceholderData && users.length === 0 && data.count > 0;
  useEffect(() => {
    if (pastEnd) show({ page: pages, newest }, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the answer says so
  }, [pastEnd, pages]);
  // Paging keeps the list as its first page was read: a sign-up meanwhile moves no one to another page.
  const toPage = (to: number) => {
    const numbered = { page: to, newest: newest ?? data?.newest_id ?? null };
    // Next to the page shown, from its own users (not the one still shown while another loads); the first
    // and last pages, by their numbers.
    const shown = query.isPlaceholderData ? [] : users;
    if (to === shownPage + 1 && shown.length) show({ ...numbered, after: shown.at(-1)!.id });
    else if (to === shownPage - 1 && to > 1 && shown.length) show({ ...numbered, before: shown[0]!.id });
    else show(numbered);
  };
  const first = (data?.offset ?? 0) + 1;
  const noun = (n: number) => `${formatInteger(n)} user${n === 1 ? '' : 's'}`;
  return (
    <section className={panelClass} aria-labelledby="users-heading">
      {/* Beside the heading from xl: at lg beside the sidebar the search and the filter left "No one needs
          attention." 140 px, on two lines (docs/decisions/146-the-last-screens-line-up.md). */}
      <div className="flex flex-col gap-3 xl:flex-row xl:items-center xl:justify-between">
        <div>
          <h2 id="users-heading" className="card-heading">
            Users
          </h2>
          {data ? (
            <p className="text-sm text-fg-muted">
              {data.needs_attention === 0
                ? 'No one needs attention.'
                : `${formatInteger(data.needs_attention)} ${data.needs_attention === 1 ? 'needs' : 'need'} attention.`}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <div className="relative sm:w-80">
            <Search
              aria-hidden
              className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-fg-muted"
            />
            <Input
              type="search"
              aria-label="Search by e-mail or name"
              placeholder="Search by e-mail or name"
              // UTF-16 units where the server counts characters: the same for an e-mail (ASCII only), and a name's
              // part cut at 127 emoji still finds its person (a shorter part matches more), so the bound stays.
              maxLength={EMAIL_MAX_LENGTH}
              value={search}
              onChange={(event) => show({ search: event.target.value }, true)}
              className="pl-9"
            />
          </div>
          <CheckboxField
            id="users-attention-only"
            label="Needs attention only"
            checked={attention}
            onChange={(event) => show({ attention: event.target.checked })}
            className="whitespace-nowrap"
          />
        </div>
      </div>
      <p className="mt-3 text-sm text-fg-muted">{PLAN_OVERRIDE_NOTE}</p>
      <div className="mt-4">
        <QueryState
          isPending={query.isPending || pastEnd}
          error={query.error}
          isEmpty={users.length === 0}
          emptyText={emptyText(deferred, attention)}
          onRetry={() => void query.refetch()}
        >
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <p ref={summary} tabIndex={-1} role="status" className="text-sm text-fg-muted outline-none">
              {pages > 1
                ? `${formatInteger(first)}–${formatInteger(first + users.length - 1)} of ${noun(data?.count ?? 0)}, newest first`
                : `${noun(data?.count ?? 0)}, newest first`}
            </p>
            {pages > 1 ? <Pager page={shownPage} pages={pages} label="Pages of users" onPage={toPage} /> : null}
          </div>
          {data && data.newer > 0 ? (
            <p className="mt-2 flex flex-wrap items-center gap-x-2 text-sm text-fg-muted">
              {noun(data.newer)} signed up since this list was read.
              <button type="button" className="cursor-pointer text-link underline" onClick={() => show({ page: 1 })}>
                Show the newest
              </button>
            </p>
          ) : null}
          <ul
            aria-busy={query.isPlaceholderData}
            // Details, plan, "Set plan" (room kept for it, so a plan picked moves no row's controls) and (De)activate.
            className={clsx(
              'mt-2 divide-y divide-line transition-opacity sm:grid sm:grid-cols-[minmax(0,1fr)_auto_minmax(5.5rem,auto)_auto] sm:gap-x-2',
              query.isPlaceholderData && 'opacity-60',
            )}
          >
            {users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === session.id}
                busy={
                  (update.isPending && update.variables.id === user.id) ||
                  (cancelEmailChange.isPending && cancelEmailChange.variables === user.id)
                }
                onCancelEmailChange={(control) => {
                  const newEmail = user.pending_email_change?.new_email ?? '';
                  // The waiting change goes with its button: the keyboard goes to the row's next control, its plan
                  // (or, should the row leave the list, to the plan of the row in its place).
                  const moveKeyboard = keyboardToNeighbourOnceGone(control, 'select', 'select');
                  cancelEmailChange.mutate(user.id, {
                    onSuccess: (changed) => {
                      moveKeyboard();
                      failureOver(`cancel e-mail change ${user.id}`);
                      toast.success(emailChangeCancelledText(changed.email, newEmail));
                    },
                    onError: (error) => toastFailure(error, describeError(error), `cancel e-mail change ${user.id}`),
                  });
                }}
                onUpdate={(body) =>
                  update.mutateAsync(
                    { id: user.id, body },
                    {
                      onSuccess: (changed) => {
                        failureOver(userUpdate(user.id, body));
                        toast.success(
                          body.subscription_plan
                            ? `${isolated(changed.email)} is now on the ${planName(changed.subscription_plan)} plan.${
                                changed.billing.stripe_subscription_id ? ' ' + UNTIL_NEXT_EVENT : ''
                              }`
                            : changed.is_active
                              ? `${isolated(changed.email)} is now active.`
                              : `${isolated(changed.email)} is deactivated and signed out everywhere.`,
                        );
                      },
                      onError: (error) => toastFailure(error, describeError(error), userUpdate(user.id, body)),
                    },
                  )
                }
              />
            ))}
          </ul>
          {pages > 1 ? (
            <div className="mt-3 flex justify-end border-t border-line pt-3">
              <Pager
                page={shownPage}
                pages={pages}
                label="Pages of users, below the list"
                onPage={(to) => {
                  toPage(to);
                  // From the list's end to the new page's start, as a new page would open.
                  summary.current?.scrollIntoView({ block: 'center' });
                  summary.current?.focus({ preventScroll: true });
                }}
              />
            </div>
          ) : null}
        </QueryState>
      </div>
    </section>
  );
}
