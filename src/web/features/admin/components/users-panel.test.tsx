import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { NO_ADMIN_BILLING } from '@shared/contract/billing';
import { formatDate } from '@web/lib/dates';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { PLAN_OVERRIDE_NOTE, UsersPanel } from './users-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
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
};
const DEACTIVATED_AT = '2026-11-20T09:30:00Z';

/** The server's users, changed by PATCH as the server would. */
function usersServer(users: AdminUser[]) {
  return fakeApi({
    [`GET ${ADMIN_API.users}`]: ({ path }) => {
      const search = new URL(path, 'http://x').searchParams.get('search') ?? '';
      const results = users.filter((user) => user.email.includes(search));
      return { results, count: results.length, needs_attention: 0 };
    },
    [`PATCH ${ADMIN_API.user.replace(':id', '1')}`]: ({ body }) => {
      if ((body as { subscription_plan?: string }).subscription_plan === 'pro')
        return jsonResponse(400, { subscription_plan: ['Pro needs a payment first.'] });
      Object.assign(users[0]!, body);
      // The server records each deactivation, and keeps it through a reactivation.
      if ((body as { is_active?: boolean }).is_active === false) users[0]!.deactivated_at = DEACTIVATED_AT;
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
    expect(await screen.findByDisplayValue('intermediate')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('ada@example.com is now on the intermediate plan.');

    const status = within(row).getByText(/joined/);
    expect(status).toHaveTextContent(/· active$/);
    await user.click(within(row).getByRole('button', { name: 'Deactivate' }));
    expect(await within(row).findByRole('button', { name: 'Activate' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('ada@example.com is deactivated and signed out everywhere.');
    expect(status).toHaveTextContent(/· deactivated on Nov 20, 2026$/);
    expect(api.calls.filter(({ method }) => method === 'PATCH').map(({ body }) => body)).toEqual([
      { subscription_plan: 'intermediate' },
      { is_active: false },
    ]);
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

  it("shows the server's refusal and keeps the plan it has", async () => {
    const user = userEvent.setup();
    usersServer([{ ...ada }]);
    renderWithProviders(<UsersPanel />);
    await user.selectOptions(await screen.findByLabelText('Plan of ada@example.com'), 'pro');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Pro needs a payment first.'));
    expect(screen.getByLabelText('Plan of ada@example.com')).toHaveValue('basic');
  });

  it('searches by e-mail and says when nobody matches', async () => {
    const user = userEvent.setup();
    const api = usersServer([{ ...ada }]);
    renderWithProviders(<UsersPanel />);
    await screen.findByText('ada@example.com');
    await user.type(screen.getByLabelText('Search by e-mail'), 'grace');
    expect(await screen.findByText('No user\'s e-mail contains "grace".')).toBeInTheDocument();
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
    };
    const grace: AdminUser = { ...ada, id: 2, email: 'grace@example.com' };
    const ended: AdminUser = {
      ...paying,
      id: 3,
      email: 'ended@example.com',
      billing: { ...paying.billing, status: 'canceled', past_due: false },
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

    await userEvent.setup().selectOptions(within(row).getByLabelText('Plan of ada@example.com'), 'intermediate');
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'ada@example.com is now on the intermediate plan. It holds until the next billing event from Stripe.',
      ),
    );
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
});
