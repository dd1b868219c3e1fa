import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminSupportRequest } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { expectIsolated, STORED_OVERRIDE } from '@web/test/isolated';
import { fakeApi, jsonResponse, pressToastAction, renderWithProviders } from '@web/test/render';
import { SupportPanel } from './support-panel';
import { waitFrames } from '@web/test/frames';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

const request = (id: number, fields: Partial<AdminSupportRequest> = {}): AdminSupportRequest => ({
  id,
  user_id: 3,
  email: 'ada@example.com',
  plan: 'basic',
  subject: `Subject ${id}`,
  message: `Message ${id}\nsecond line`,
  priority: false,
  created_at: '2026-11-23T10:00:00Z',
  handled_at: null,
  ...fields,
});

/** The server's requests, newest first, changed by PATCH as the server would. */
function supportServer(requests: AdminSupportRequest[], patchAnswers: () => Promise<void> = async () => {}) {
  const list = (openOnly: boolean) => {
    const results = requests.filter((r) => !openOnly || r.handled_at === null);
    return { results, count: results.length, open: requests.filter((r) => r.handled_at === null).length };
  };
  return fakeApi({
    [`GET ${ADMIN_API.supportRequests}?open=true`]: () => list(true),
    [`GET ${ADMIN_API.supportRequests}`]: () => list(false),
    [`PATCH ${ADMIN_API.supportRequest.replace(':id', '2')}`]: async ({ body }) => {
      await patchAnswers();
      const target = requests.find((r) => r.id === 2)!;
      target.handled_at = (body as { handled: boolean }).handled ? '2026-11-23T11:00:00Z' : null;
      return target;
    },
    [`PATCH ${ADMIN_API.supportRequest.replace(':id', '1')}`]: () => jsonResponse(404, { detail: 'Not found.' }),
  });
}

describe('SupportPanel', () => {
  it('lists the open requests with sender, plan, priority and message, and marks one handled', async () => {
    const user = userEvent.setup();
    const api = supportServer([request(2, { priority: true, plan: 'pro', email: 'pro@example.com' }), request(1)]);
    renderWithProviders(<SupportPanel />);

    const item = (await screen.findByRole('heading', { name: /#2 · Subject 2/ })).closest('li')!;
    expect(within(item).getByText('Priority')).toBeVisible();
    expect(within(item).getByText('pro@example.com')).toHaveAttribute('href', 'mailto:pro@example.com');
    expect(within(item).getByText('pro')).toBeVisible();
    expect(within(item).getByText(/Message 2/)).toHaveTextContent('Message 2 second line');
    const other = screen.getByRole('heading', { name: /#1 · Subject 1/ }).closest('li')!;
    expect(within(other).queryByText('Priority')).toBeNull();
    expect(screen.getByText(/2 open\./)).toBeVisible();

    await user.click(within(item).getByLabelText('Handled #2'));
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Request #2 is handled.', {
        action: { label: 'Undo', onClick: expect.any(Function) },
      }),
    );
    // The open list no longer has it.
    expect(await screen.findByText(/1 open\./)).toBeVisible();
    expect(screen.queryByRole('heading', { name: /#2 · Subject 2/ })).toBeNull();
    expect(api.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ handled: true }]);

    // All requests: the handled one is there, checked, and can be opened again.
    await user.click(screen.getByLabelText('Open only'));
    const handled = await screen.findByLabelText('Handled #2');
    expect(handled).toBeChecked();
    await user.click(handled);
    expect(toast.success).toHaveBeenCalledWith('Request #2 is open again.');
  });

  it('gives back a request marked handled by a slip, which "Open only" had taken off the list, with Undo', async () => {
    const user = userEvent.setup();
    const api = supportServer([request(2), request(1)]);
    renderWithProviders(<SupportPanel />);
    await user.click(await screen.findByLabelText('Handled #2'));
    expect(await screen.findByText(/1 open\./)).toBeVisible();
    expect(screen.queryByLabelText('Handled #2')).toBeNull();

    pressToastAction('Request #2 is handled.');
    const back = await screen.findByLabelText('Handled #2');
    expect(back).not.toBeChecked();
    expect(screen.getByText(/2 open\./)).toBeVisible();
    expect(toast.success).toHaveBeenLastCalledWith('Request #2 is open again.');
    expect(api.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { handled: true },
      { handled: false },
    ]);
  });

  it("puts the keyboard on the next request's box when one marked handled leaves the open list, or the one before at its end", async () => {
    const user = userEvent.setup();
    supportServer([request(3), request(2), request(1)]);
    renderWithProviders(<SupportPanel />);
    await user.click(await screen.findByLabelText('Handled #2'));
    await vi.waitFor(() => expect(screen.queryByLabelText('Handled #2')).toBeNull());
    await vi.waitFor(() => expect(screen.getByLabelText('Handled #1')).toHaveFocus());
  });

  it('puts the keyboard on the list’s heading when the last open request marked handled leaves the open list (decision 151)', async () => {
    const user = userEvent.setup();
    supportServer([request(2)]);
    renderWithProviders(<SupportPanel />);
    await user.click(await screen.findByLabelText('Handled #2'));
    await vi.waitFor(() => expect(screen.queryByLabelText('Handled #2')).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Support requests' })).toHaveFocus());
  });

  it('puts the keyboard on the box of the request Undo gives back, once the list holding it is read, however long that takes', async () => {
    const user = userEvent.setup();
    const requests = [request(2), request(1)];
    let answerRead: (() => void) | null = null;
    let holdReads = false;
    fakeApi({
      [`GET ${ADMIN_API.supportRequests}?open=true`]: async () => {
        // Once Undo is pressed, the open list answers when the test says: a network's time, many frames.
        if (holdReads) await new Promise<void>((resolve) => (answerRead = resolve));
        const results = requests.filter((r) => r.handled_at === null);
        return { results, count: results.length, open: results.length };
      },
      [`PATCH ${ADMIN_API.supportRequest.replace(':id', '2')}`]: ({ body }) => {
        requests[0]!.handled_at = (body as { handled: boolean }).handled ? '2026-11-23T11:00:00Z' : null;
        return requests[0];
      },
    });
    renderWithProviders(<SupportPanel />);
    (await screen.findByLabelText('Handled #2')).focus();
    await user.keyboard(' ');
    await vi.waitFor(() => expect(screen.getByLabelText('Handled #1')).toHaveFocus());

    holdReads = true;
    pressToastAction('Request #2 is handled.');
    await vi.waitFor(() => expect(answerRead).not.toBeNull());
    // More frames than a hand-over looks for what it waits for once called: it is called with the answer.
    await waitFrames(15);
    expect(screen.queryByLabelText('Handled #2')).toBeNull();
    answerRead!();
    await vi.waitFor(() => expect(screen.getByLabelText('Handled #2')).toHaveFocus());
    expect(screen.getByLabelText('Handled #2')).not.toBeChecked();
  });

  it('keeps the keyboard on a box while it is marked handled, a second press changing nothing', async () => {
    const user = userEvent.setup();
    let answer = () => {};
    const api = supportServer([request(2), request(1)], () => new Promise((resolve) => (answer = resolve)));
    renderWithProviders(<SupportPanel />);
    await user.click(screen.getByLabelText('Open only'));
    const box = await screen.findByLabelText('Handled #2');
    box.focus();
    await user.keyboard(' ');
    await vi.waitFor(() => expect(box).toHaveAttribute('aria-disabled', 'true'));
    expect(box).toHaveFocus();
    expect(box).not.toBeChecked();
    // Pressed again while busy: nothing sent. (A box's click cancelled, jsdom toggles it back where browsers restore
    // it, so its tick is not checked here until the answer.)
    await user.keyboard(' ');
    await user.click(box);
    expect(box).toHaveFocus();
    answer();
    await vi.waitFor(() => expect(box).not.toHaveAttribute('aria-disabled', 'true'));
    expect(box).toBeChecked();
    expect(box).toHaveFocus();
    expect(api.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ handled: true }]);
  });

  it('shows a subject and a message in their own box, so a stored direction control reorders nothing after it', async () => {
    supportServer([request(1, { subject: STORED_OVERRIDE, message: `${STORED_OVERRIDE}\nsecond line` })]);
    renderWithProviders(<SupportPanel />);
    const item = (await screen.findByRole('heading', { name: /#1 ·/ })).closest('li')!;
    expectIsolated(within(item).getByText(STORED_OVERRIDE));
    expectIsolated(within(item).getByText(/second line/), `${STORED_OVERRIDE}\nsecond line`);
  });

  it('says so when a change fails', async () => {
    const user = userEvent.setup();
    supportServer([request(1)]);
    renderWithProviders(<SupportPanel />);
    await user.click(await screen.findByLabelText('Handled #1'));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Not found.'));
  });

  it('has an empty state for each filter and an error state with retry', async () => {
    const user = userEvent.setup();
    supportServer([request(1, { handled_at: '2026-11-23T11:00:00Z' })]);
    renderWithProviders(<SupportPanel />);
    expect(await screen.findByText('No open support requests.')).toBeVisible();
    await user.click(screen.getByLabelText('Open only'));
    expect(await screen.findByLabelText('Handled #1')).toBeChecked();

    vi.unstubAllGlobals();
    fakeApi({ [`GET ${ADMIN_API.supportRequests}?open=true`]: () => jsonResponse(500, { detail: 'Server Error' }) });
    renderWithProviders(<SupportPanel />);
    expect(await screen.findByText(/Could not load this list/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
