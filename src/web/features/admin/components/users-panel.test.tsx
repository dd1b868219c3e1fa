import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@shared/contract';
import { ADMIN_API, ADMIN_USER_PAGE_SIZE } from '@shared/contract/admin';
import { NO_ADMIN_BILLING } from '@shared/contract/billing';
import { formatDate, formatDateTime } from '@web/lib/dates';
import { sessionStore } from '@web/lib/session';
import { expectIsolated, STORED_OVERRIDE } from '@web/test/isolated';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { DEACTIVATED_BILLING_TEXT, emailChangeCancelledText, PLAN_OVERRIDE_NOTE, UsersPanel } from './users-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

const ada: AdminUser = {
  id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  is_active: true,
  is_staff: false,
  subscription_plan: 'basic',
  date_joined: '2026-01-05T10:00:00Z',
  last_login: null,
  deactivated_at: null,
  billing: NO_ADMIN_BILLING,
  attention: [],
  pending_email_change: null,
};
const DEACTIVATED_AT = '2026-11-20T09:30:00Z';

/** The server's users (newest first), a page at a time, changed by PATCH as the server would. */
function usersServer(users: AdminUser[]) {
  return fakeApi({
    [`GET ${ADMIN_API.users}`]: ({ path }) => {
      const query = new URL(path, 'http://x').searchParams;
      const search = query.get('search') ?? '';
      const page = Number(query.get('page') ?? '1');
      const newest = Number(query.get('newest_id') ?? Math.max(0, ...users.map((user) => user.id)));
      const matching = users.filter(
        (user) =>
          (user.email.includes(search) || `${user.first_name} ${user.last_name}`.includes(search)) &&
          (query.get('attention') !== 'true' || user.attention.length > 0),
      );
      const held = matching.filter((user) => user.id <= newest);
      const after = query.get('after_id');
      const before = query.get('before_id');
      const older = held.filter((user) => user.id < Number(after));
      const newer = held.filter((user) => user.id > Number(before));
      const results = after
        ? older.slice(0, ADMIN_USER_PAGE_SIZE)
        : before
          ? newer.slice(-ADMIN_USER_PAGE_SIZE)
          : held.slice((page - 1) * ADMIN_USER_PAGE_SIZE, page * ADMIN_USER_PAGE_SIZE);
      // Where the page is, counted from its rows as the server counts it.
      const pagesOf = (n: number) => Math.ceil(n / ADMIN_USER_PAGE_SIZE);
      const offset = results.length ? held.filter((user) => user.id > results[0]!.id).length : held.length;
      const rest = results.length ? held.filter((user) => user.id < results.at(-1)!.id).length : 0;
      const at = pagesOf(offset) + 1;
      return {
        results,
        count: held.length,
        needs_attention: users.filter((user) => user.attention.length > 0).length,
        newest_id: newest || null,
        newer: matching.length - held.length,
        offset,
        page: at,
        pages: results.length ? at + pagesOf(rest) : Math.max(1, pagesOf(held.length)),
      };
    },
    [`PATCH ${ADMIN_API.user.replace(':id', '1')}`]: ({ body }) => {
      if ((body as { subscription_plan?: string }).subscription_plan === 'pro')
        return jsonResponse(400, { subscription_plan: ['Pro needs a payment first.'] });
      Object.assign(users[0]!, body);
      // The server records each deactivation, and keeps it through a reactivation.
      if ((body as { is_active?: boolean }).is_active === false) users[0]!.deactivated_at = DEACTIVATED_AT;
      return users[0];
    },
    [`DELETE ${ADMIN_API.userEmailChange.replace(':id', '1')}`]: () => {
      users[0]!.pending_email_change = null;
      return users[0];
    },
  });
}

describe('UsersPanel', () => {
  it('sets a plan and deactivates a user, then shows the list as the server has it', async () => {
    const user = userEvent.setup();
    const api = usersServer([{ ...ada }]);
    renderWithProviders(<UsersPanel />);
    const row = (await screen.findByText('ada@example.com')).closest('li')!;

    await user.selectOptions(within(row).getByLabelText('Plan of ada@example.com'), 'intermediate');
    await user.click(within(row).getByRole('button', { name: 'Set plan of ada@example.com to intermediate' }));
    expect(await screen.findByDisplayValue('Intermediate')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('\u2068ada@example.com\u2069 is now on the Intermediate plan.');
    // The button goes with the choice set; the keyboard is back on the plan.
    await vi.waitFor(() => expect(within(row).getByLabelText('Plan of ada@example.com')).toHaveFocus());
    expect(within(row).queryByRole('button', { name: /^Set plan/ })).not.toBeInTheDocument();

    const status = within(row).getByText(/joined/);
    expect(status).toHaveTextContent(/· active$/);
    await user.click(within(row).getByRole('button', { name: 'Deactivate' }));
    const asking = await screen.findByRole('dialog', { name: 'Deactivate ada@example.com?' });
    expect(asking).toHaveTextContent('They are signed out everywhere at once');
    await user.click(within(asking).getByRole('button', { name: 'Deactivate' }));
    expect(await within(row).findByRole('button', { name: 'Activate' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('\u2068ada@example.com\u2069 is deactivated and signed out everywhere.');
    expect(status).toHaveTextContent(/· deactivated on Nov 20, 2026$/);
    // The dialog gives the keyboard back to the button, which stays where it was.
    await vi.waitFor(() => expect(within(row).getByRole('button', { name: 'Activate' })).toHaveFocus());
    expect(api.calls.filter(({ method }) => method === 'PATCH').map(({ body }) => body)).toEqual([
      { subscription_plan: 'intermediate' },
      { is_active: false },
    ]);
  });

  it('changes nothing while a plan is only chosen, or a deactivation asked and cancelled', async () => {
    const user = userEvent.setup();
    const api = usersServer([{ ...ada }]);
    renderWithProviders(<UsersPanel />);
    const row = (await screen.findByText('ada@example.com')).closest('li')!;

    // Passing through the plan with the arrow keys, as a keyboard does, and back.
    const plan = within(row).getByLabelText('Plan of ada@example.com');
    await user.selectOptions(plan, 'pro');
    await user.selectOptions(plan, 'intermediate');
    expect(within(row).getByRole('button', { name: 'Set plan of ada@example.com to intermediate' })).toBeVisible();
    await user.selectOptions(plan, 'basic');
    expect(within(row).queryByRole('button', { name: /^Set plan/ })).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Deactivate' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(row).getByText(/joined/)).toHaveTextContent(/· active$/);
    expect(api.calls.filter(({ method }) => method === 'PATCH')).toEqual([]);
  });

  it('does not offer staff to deactivate their own account, which the server refuses, and marks their row', async () => {
    const staff = { ...ada, id: 2, email: 'staff@example.com', is_staff: true };
    usersServer([staff, { ...ada }]);
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, staff.email);
    sessionStore.setUser({ id: 2, email: staff.email, first_name: 'Ada', last_name: 'Lovelace', is_staff: true });
    renderWithProviders(<UsersPanel />);
    const own = (await screen.findByText('staff@example.com')).closest('li')!;
    const other = screen.getByText('ada@example.com').closest('li')!;
    expect(within(own).queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
    expect(within(own).getByText('you')).toBeInTheDocument();
    expect(within(own).getByLabelText('Plan of staff@example.com')).toBeEnabled();
    expect(within(other).getByRole('button', { name: 'Deactivate' })).toBeInTheDocument();
    expect(within(other).queryByText('you')).not.toBeInTheDocument();
  });

  it('shows a person’s name in its own box, so a stored direction control does not reorder "joined …"', async () => {
    usersServer([{ ...ada, first_name: 'Sleep', last_name: '\u202etxt.exe' }]);
    renderWithProviders(<UsersPanel />);
    const row = (await screen.findByText('ada@example.com')).closest('li')!;
    expectIsolated(within(row).getByText(STORED_OVERRIDE));
    expect(within(row).getByText(/joined/)).toHaveTextContent(`${STORED_OVERRIDE} · joined Jan 5, 2026 · active`);
  });

  it('shows a change of e-mail waiting for its link, the address in its own box, and cancels it', async () => {
    const user = userEvent.setup();
    const requested = '2026-12-03T07:05:00Z';
    const api = usersServer([
      { ...ada, pending_email_change: { new_email: STORED_OVERRIDE, requested_at: requested } },
      { ...ada, id: 2, email: 'grace@example.com' },
    ]);
    renderWithProviders(<UsersPanel />);
    const row = (await screen.findByText('ada@example.com')).closest('li')!;
    const line = within(row).getByText(/Asked to change the e-mail to/);
    expect(line).toHaveTextContent(
      `Asked to change the e-mail to ${STORED_OVERRIDE} on ${formatDateTime(requested)}; the link is not opened yet.`,
    );
    expectIsolated(within(line).getByText(STORED_OVERRIDE));
    // Only the person who asked for one.
    const other = screen.getByText('grace@example.com').closest('li')!;
    expect(within(other).queryByText(/Asked to change/)).not.toBeInTheDocument();
    expect(within(other).queryByRole('button', { name: /Cancel the change/ })).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Cancel the change of e-mail of ada@example.com' }));
    await vi.waitFor(() => expect(within(row).queryByText(/Asked to change/)).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith(emailChangeCancelledText('ada@example.com', STORED_OVERRIDE));
    expect(emailChangeCancelledText('ada@example.com', STORED_OVERRIDE)).toBe(
      `The change of \u2068ada@example.com\u2069 to \u2068${STORED_OVERRIDE}\u2069 was cancelled; its link no longer works.`,
    );
    expect(api.calls.filter(({ method }) => method === 'DELETE').map(({ path }) => path)).toEqual([
      '/api/admin/users/1/email-change/',
    ]);
  });

  it('keeps the keyboard on Cancel the change while its call runs, and a second press sends nothing', async () => {
    const user = userEvent.setup();
    let answer = (_response: Response) => {};
    const api = fakeApi({
      [`GET ${ADMIN_API.users}`]: () => ({
        results: [{ ...ada, pending_email_change: { new_email: 'ada@new.example', requested_at: DEACTIVATED_AT } }],
        count: 1,
        needs_attention: 0,
        newest_id: 1,
        newer: 0,
        offset: 0,
        page: 1,
        pages: 1,
      }),
      [`DELETE ${ADMIN_API.userEmailChange.replace(':id', '1')}`]: () =>
        new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithProviders(<UsersPanel />);
    const cancel = await screen.findByRole('button', { name: 'Cancel the change of e-mail of ada@example.com' });
    cancel.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(cancel).toHaveAttribute('aria-disabled', 'true'));
    expect(cancel).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.click(cancel);
    // Refused: the change stays, its button and the keyboard with it.
    answer(jsonResponse(500, { detail: 'A server error occurred.' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('A server error occurred.'));
    await vi.waitFor(() => expect(cancel).not.toHaveAttribute('aria-disabled'));
    expect(cancel).toHaveFocus();
    expect(api.calls.filter(({ method }) => method === 'DELETE')).toHaveLength(1);
  });

  it('hands the keyboard from a cancelled change to the row’s next control, its plan', async () => {
    const user = userEvent.setup();
    usersServer([
      { ...ada, pending_email_change: { new_email: 'ada@new.example', requested_at: DEACTIVATED_AT } },
      { ...ada, id: 2, email: 'grace@example.com' },
    ]);
    renderWithProviders(<UsersPanel />);
    const cancel = await screen.findByRole('button', { name: 'Cancel the change of e-mail of ada@example.com' });
    cancel.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(cancel).not.toBeInTheDocument());
    // Not the page's top, where it fell with the button: the plan beside it, in the same row.
    await vi.waitFor(() => expect(screen.getByLabelText('Plan of ada@example.com')).toHaveFocus());
  });

  it('tells an account never activated from one staff deactivated', async () => {
    const waiting: AdminUser = { ...ada, id: 2, email: 'waiting@example.com', is_active: false };
    const stopped: AdminUser = {
      ...ada,
      id: 3,
      email: 'stopped@example.com',
      is_active: false,
      deactivated_at: DEACTIVATED_AT,
    };
    const back: AdminUser = { ...ada, id: 4, email: 'back@example.com', deactivated_at: DEACTIVATED_AT };
    usersServer([waiting, stopped, back]);
    renderWithProviders(<UsersPanel />);
    const line = async (email: string) =>
      within((await screen.findByText(email)).closest('li')!).getByText(/joined/).textContent;
    // Dates as members' screens write them ("Jan 5, 2026", not "1/5/2026").
    const joined = 'joined Jan 5, 2026';
    expect(await line('waiting@example.com')).toBe(`Ada Lovelace · ${joined} · not activated yet`);
    expect(await line('stopped@example.com')).toBe(`Ada Lovelace · ${joined} · deactivated on Nov 20, 2026`);
    expect(await line('back@example.com')).toBe(`Ada Lovelace · ${joined} · active`);
  });

  it("shows the server's refusal and keeps the plan chosen, to set again or change", async () => {
    const user = userEvent.setup();
    usersServer([{ ...ada }]);
    renderWithProviders(<UsersPanel />);
    await user.selectOptions(await screen.findByLabelText('Plan of ada@example.com'), 'pro');
    await user.click(screen.getByRole('button', { name: 'Set plan of ada@example.com to pro' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Pro needs a payment first.'));
    // The choice stays offered, with its button and the keyboard on it, to set again or change.
    expect(screen.getByLabelText('Plan of ada@example.com')).toHaveValue('pro');
    expect(screen.getByRole('button', { name: 'Set plan of ada@example.com to pro' })).toHaveFocus();
  });

  it('searches by e-mail or name and says when nobody matches', async () => {
    const user = userEvent.setup();
    const api = usersServer([{ ...ada }]);
    renderWithProviders(<UsersPanel />);
    await screen.findByText('ada@example.com');
    await user.type(screen.getByLabelText('Search by e-mail or name'), 'Ada Love');
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?search=Ada%20Love`);
    await user.clear(screen.getByLabelText('Search by e-mail or name'));
    await user.type(screen.getByLabelText('Search by e-mail or name'), 'grace');
    expect(await screen.findByText('No user\'s e-mail or name contains "grace".')).toBeInTheDocument();
    expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?search=grace`);
  });

  it("shows each user's Stripe billing, and that a plan set here lasts until Stripe's next event", async () => {
    const paying: AdminUser = {
      ...ada,
      subscription_plan: 'pro',
      billing: {
        status: 'past_due',
        past_due: true,
        current_period_end: '2026-12-23T12:00:00Z',
        cancel_at_period_end: false,
        stripe_customer_id: 'cus_Ada123',
        stripe_subscription_id: 'sub_Ada456',
        second_subscriptions: [],
      },
      attention: ['payment_failed'],
    };
    const grace: AdminUser = { ...ada, id: 2, email: 'grace@example.com' };
    const ended: AdminUser = {
      ...paying,
      id: 3,
      email: 'ended@example.com',
      billing: { ...paying.billing, status: 'canceled', past_due: false },
      attention: [],
    };
    usersServer([paying, grace, ended]);
    renderWithProviders(<UsersPanel />);
    const row = (await screen.findByText('ada@example.com')).closest('li')!;
    expect(row).toHaveTextContent('Stripe: past due · payment failed · renews Dec 23, 2026');
    expect(within(row).getByText('cus_Ada123')).toBeInTheDocument();
    expect(within(row).getByText('sub_Ada456')).toBeInTheDocument();
    expect(screen.getByText('grace@example.com').closest('li')).toHaveTextContent('No Stripe billing');
    // An ended subscription does not renew.
    expect(screen.getByText('ended@example.com').closest('li')).toHaveTextContent(/Stripe: canceled(?! ·)/);
    expect(screen.getByText(PLAN_OVERRIDE_NOTE)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.selectOptions(within(row).getByLabelText('Plan of ada@example.com'), 'intermediate');
    await user.click(within(row).getByRole('button', { name: 'Set plan of ada@example.com to intermediate' }));
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        '\u2068ada@example.com\u2069 is now on the Intermediate plan. It holds until the next billing event from Stripe.',
      ),
    );
    // Deactivating a paying member asks first, and says Stripe keeps charging them; an ended one's does not.
    await user.click(within(row).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Their Stripe subscription keeps billing');
    await user.keyboard('{Escape}');
    await user.click(
      within(screen.getByText('ended@example.com').closest('li')!).getByRole('button', { name: 'Deactivate' }),
    );
    expect(await screen.findByRole('dialog')).not.toHaveTextContent('Stripe');
  });

  it('shows every second subscription (two Checkouts paid at once) still to settle, and the latest refunded', async () => {
    const settled = {
      subscription_id: 'sub_Second1',
      settled_at: '2026-12-02T12:00:00Z',
      refunded_amount: 3600,
      currency: 'usd',
      failure: null,
    };
    const pending = {
      ...settled,
      subscription_id: 'sub_Second2',
      settled_at: null,
      refunded_amount: null,
      currency: null,
    };
    const refused = { ...pending, subscription_id: 'sub_Second3', failure: "No such subscription: 'sub_Second3'" };
    const billing = {
      ...NO_ADMIN_BILLING,
      status: 'active' as const,
      stripe_customer_id: 'cus_Twice',
      stripe_subscription_id: 'sub_Kept',
    };
    const refunded: AdminUser = { ...ada, billing: { ...billing, second_subscriptions: [settled] } };
    const open: AdminUser = {
      ...ada,
      id: 2,
      email: 'open@example.com',
      billing: { ...billing, second_subscriptions: [refused, pending, { ...settled, subscription_id: 'sub_Second4' }] },
      attention: ['second_subscription'],
    };
    usersServer([refunded, open]);
    renderWithProviders(<UsersPanel />);
    const row = (await screen.findByText('ada@example.com')).closest('li')!;
    expect(row).toHaveTextContent(
      `Second subscription cancelled and $36.00 refunded on ${formatDate('2026-12-02T12:00:00Z')}.`,
    );
    expect(within(row).getByText('sub_Second1')).toBeInTheDocument();
    const openRow = screen.getByText('open@example.com').closest('li')!;
    const lines = [...openRow.querySelectorAll('p')]
      .map((line) => line.textContent)
      .filter((text) => text?.startsWith('Second'));
    expect(lines).toEqual([
      "Second subscription still bills: Stripe refused (No such subscription: 'sub_Second3'). Cancel and refund it at Stripe.sub_Second3",
      'Second subscription still bills: being cancelled and refunded (Stripe sends the event again).sub_Second2',
      `Second subscription cancelled and $36.00 refunded on ${formatDate('2026-12-02T12:00:00Z')}.sub_Second4`,
    ]);
  });

  it('marks the users whose billing needs staff, each with why, and lists only them when asked', async () => {
    const user = userEvent.setup();
    const stripe = {
      ...NO_ADMIN_BILLING,
      status: 'active' as const,
      stripe_customer_id: 'cus_X',
      stripe_subscription_id: 'sub_X',
    };
    const failed: AdminUser = {
      ...ada,
      id: 3,
      email: 'failed@example.com',
      billing: { ...stripe, status: 'past_due', past_due: true },
      attention: ['payment_failed'],
    };
    const stopped: AdminUser = {
      ...ada,
      id: 2,
      email: 'stopped@example.com',
      is_active: false,
      deactivated_at: DEACTIVATED_AT,
      billing: stripe,
      attention: ['deactivated_billing'],
    };
    const paying: AdminUser = { ...ada, billing: stripe };
    const api = usersServer([failed, stopped, paying]);
    const { router } = renderWithProviders(<UsersPanel />, { path: '/admin/users' });
    const row = async (email: string) => (await screen.findByText(email)).closest('li')!;
    expect(await screen.findByText('2 need attention.')).toBeInTheDocument();
    expect(within(await row('failed@example.com')).getByText('Needs attention')).toBeInTheDocument();
    expect(within(await row('failed@example.com')).getByText(/payment failed/)).toHaveClass('text-danger');
    expect(within(await row('stopped@example.com')).getByText(DEACTIVATED_BILLING_TEXT)).toHaveClass('text-danger');
    expect(within(await row('ada@example.com')).queryByText('Needs attention')).toBeNull();
    expect(within(await row('ada@example.com')).getByText(/Stripe: active/)).not.toHaveClass('text-danger');

    await user.click(screen.getByLabelText('Needs attention only'));
    await vi.waitFor(() => expect(screen.queryByText('ada@example.com')).toBeNull());
    expect(screen.getByText('failed@example.com')).toBeInTheDocument();
    expect(screen.getByText('stopped@example.com')).toBeInTheDocument();
    expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?attention=true`);
    expect(router.state.location.search).toBe('?attention=true');
    await user.type(screen.getByLabelText('Search by e-mail or name'), 'ada');
    expect(await screen.findByText('No user needing attention matches "ada".')).toBeInTheDocument();
    expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?search=ada&attention=true`);
  });

  describe('with more users than a page', () => {
    // 120 users, newest first: user120 … user1.
    const crowd = () =>
      Array.from({ length: 120 }, (_, i): AdminUser => ({ ...ada, id: 120 - i, email: `user${120 - i}@example.com` }));
    const summary = () => screen.getByRole('status');
    const top = () => screen.getByRole('navigation', { name: 'Pages of users' });
    const bottom = () => screen.getByRole('navigation', { name: 'Pages of users, below the list' });

    it('pages forward and back, keeping the page in the address', async () => {
      const user = userEvent.setup();
      const api = usersServer(crowd());
      const { router } = renderWithProviders(<UsersPanel />, { path: '/admin/users' });
      await screen.findByText('user120@example.com');
      expect(summary()).toHaveTextContent('1–50 of 120 users, newest first');
      expect(within(top()).getByText('Page 1 of 3')).toBeInTheDocument();
      expect(within(top()).getByRole('button', { name: 'Previous page' })).toBeDisabled();
      expect(within(top()).getByRole('button', { name: 'First page' })).toBeDisabled();
      expect(screen.getAllByRole('listitem')).toHaveLength(50);

      await user.click(within(top()).getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText('user70@example.com')).toBeInTheDocument();
      expect(screen.queryByText('user120@example.com')).toBeNull();
      expect(summary()).toHaveTextContent('51–100 of 120 users, newest first');
      // The pages after the first hold whom it held; the next one is asked for after the last user shown.
      expect(router.state.location.search).toBe('?page=2&newest=120&after=71');
      expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?page=2&newest_id=120&after_id=71`);

      // From the list's end, the new page starts at its top.
      await user.click(within(bottom()).getByRole('button', { name: 'Last page' }));
      expect(await screen.findByText('user20@example.com')).toBeInTheDocument();
      expect(summary()).toHaveTextContent('101–120 of 120 users, newest first');
      expect(summary()).toHaveFocus();
      expect(screen.getAllByRole('listitem')).toHaveLength(20);
      expect(within(bottom()).getByRole('button', { name: 'Next page' })).toBeDisabled();
      expect(within(bottom()).getByRole('button', { name: 'Last page' })).toBeDisabled();

      // Back returns to the page before.
      await act(() => router.navigate(-1));
      expect(await screen.findByText('user70@example.com')).toBeInTheDocument();
      await user.click(within(top()).getByRole('button', { name: 'First page' }));
      expect(await screen.findByText('user120@example.com')).toBeInTheDocument();
      expect(router.state.location.search).toBe('?newest=120');
    });

    it('skips nobody when someone on the page shown is deleted before the next page, forward or back', async () => {
      const user = userEvent.setup();
      const users = crowd();
      const api = usersServer(users);
      const { router } = renderWithProviders(<UsersPanel />, { path: '/admin/users' });
      await screen.findByText('user120@example.com');
      const emails = () =>
        screen.getAllByRole('listitem').map((item) => within(item).getByText(/^user\d+@example\.com$/).textContent);
      // user100 is deleted (by other staff) while this page is read: user70 still opens the next page.
      users.splice(20, 1);
      await user.click(within(top()).getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText('user21@example.com')).toBeInTheDocument();
      expect(emails()).toEqual(Array.from({ length: 50 }, (_, i) => `user${70 - i}@example.com`));
      // 49 users are left before user70: it is the 50th, not the 51st.
      expect(summary()).toHaveTextContent('50–99 of 119 users, newest first');
      expect(within(top()).getByText('Page 2 of 3')).toBeInTheDocument();
      await user.click(within(top()).getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText('user1@example.com')).toBeInTheDocument();
      expect(emails()).toEqual(Array.from({ length: 20 }, (_, i) => `user${20 - i}@example.com`));
      // Counted from the page before, this said "101–120 of 119".
      expect(summary()).toHaveTextContent('100–119 of 119 users, newest first');
      expect(within(top()).getByText('Page 3 of 3')).toBeInTheDocument();
      // Back by the pager: the users just before this page's first.
      await user.click(within(top()).getByRole('button', { name: 'Previous page' }));
      expect(await screen.findByText('user70@example.com')).toBeInTheDocument();
      expect(emails()).toEqual(Array.from({ length: 50 }, (_, i) => `user${70 - i}@example.com`));
      expect(router.state.location.search).toBe('?page=2&newest=120&before=20');
      expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?page=2&newest_id=120&before_id=20`);
      expect(summary()).toHaveTextContent('50–99 of 119 users, newest first');
      // Previous from there: the first page, short of the deleted user, with Previous off.
      await user.click(within(top()).getByRole('button', { name: 'Previous page' }));
      expect(await screen.findByText('user120@example.com')).toBeInTheDocument();
      expect(summary()).toHaveTextContent('1–50 of 119 users, newest first');
      expect(within(top()).getByText('Page 1 of 3')).toBeInTheDocument();
      expect(within(top()).getByRole('button', { name: 'Previous page' })).toBeDisabled();
    });

    it('reaches the one user a deletion leaves past the pages it counts, and says which page that is', async () => {
      const user = userEvent.setup();
      // 101 users (user120 … user20); the second page by its number, then user120 on the first is deleted.
      const users = crowd().filter((u) => u.id >= 20);
      usersServer(users);
      renderWithProviders(<UsersPanel />, { path: '/admin/users?page=2' });
      expect(await screen.findByText('user21@example.com')).toBeInTheDocument();
      users.splice(0, 1);
      expect(within(top()).getByText('Page 2 of 3')).toBeInTheDocument();
      await user.click(within(top()).getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText('user20@example.com')).toBeInTheDocument();
      // Counted by the client: "Page 3 of 2" and "101–100 of 100" (100 users are two pages of 50).
      expect(summary()).toHaveTextContent('100–100 of 100 users, newest first');
      expect(within(top()).getByText('Page 3 of 3')).toBeInTheDocument();
      expect(within(top()).getByRole('button', { name: 'Next page' })).toBeDisabled();
    });

    it('keeps its pages while people sign up, and shows the newcomers when asked', async () => {
      const user = userEvent.setup();
      const users = crowd();
      const api = usersServer(users);
      const { router } = renderWithProviders(<UsersPanel />, { path: '/admin/users' });
      await screen.findByText('user120@example.com');
      // Two sign up while staff read the first page: page 2 still starts after user71, none shown twice.
      users.unshift(
        { ...ada, id: 122, email: 'user122@example.com' },
        { ...ada, id: 121, email: 'user121@example.com' },
      );
      await user.click(within(top()).getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText('user21@example.com')).toBeInTheDocument();
      const shown = screen
        .getAllByRole('listitem')
        .map((item) => within(item).getByText(/^user\d+@example\.com$/).textContent);
      expect(shown).toEqual(Array.from({ length: 50 }, (_, i) => `user${70 - i}@example.com`));
      expect(summary()).toHaveTextContent('51–100 of 120 users, newest first');
      expect(screen.getByText('2 users signed up since this list was read.')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Show the newest' }));
      expect(await screen.findByText('user122@example.com')).toBeInTheDocument();
      expect(router.state.location.search).toBe('');
      expect(api.calls.at(-1)?.path).toBe(ADMIN_API.users);
      expect(summary()).toHaveTextContent('1–50 of 122 users, newest first');
      expect(screen.queryByText(/signed up since/)).toBeNull();
    });

    it('starts a new search or filter at the first page', async () => {
      const user = userEvent.setup();
      const api = usersServer(crowd());
      const { router } = renderWithProviders(<UsersPanel />, { path: '/admin/users?page=3' });
      expect(await screen.findByText('user20@example.com')).toBeInTheDocument();
      await user.type(screen.getByLabelText('Search by e-mail or name'), 'user1');
      await vi.waitFor(() => expect(router.state.location.search).toBe('?search=user1'));
      expect(await screen.findByText('user120@example.com')).toBeInTheDocument();
      expect(api.calls.at(-1)?.path).toBe(`${ADMIN_API.users}?search=user1`);
      // user1, user10–19, user100–120: one page.
      expect(summary()).toHaveTextContent('32 users, newest first');
      expect(screen.queryByRole('navigation', { name: 'Pages of users' })).toBeNull();
    });

    it('shows the last page for a page past the end, and the first for a page that is no number', async () => {
      const api = usersServer(crowd());
      const { router } = renderWithProviders(<UsersPanel />, { path: '/admin/users?page=9' });
      expect(await screen.findByText('user20@example.com')).toBeInTheDocument();
      expect(router.state.location.search).toBe('?page=3');
      expect(api.calls.map((call) => call.path)).toEqual([`${ADMIN_API.users}?page=9`, `${ADMIN_API.users}?page=3`]);

      const other = usersServer(crowd());
      renderWithProviders(<UsersPanel />, { path: '/admin/users?page=0' });
      expect((await screen.findAllByText('user120@example.com')).length).toBeGreaterThan(0);
      expect(other.calls.map((call) => call.path)).toEqual([ADMIN_API.users]);
    });
  });
});
