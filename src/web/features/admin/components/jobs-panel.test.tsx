import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminJob } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { JobsPanel } from './jobs-panel';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

const job = (id: number, fields: Partial<AdminJob> = {}): AdminJob => ({
  id,
  kind: 'mail.activation',
  status: 'dead',
  attempts: 8,
  max_attempts: 8,
  payload: { userId: 3 },
  run_at: '2026-11-23T10:00:00Z',
  created_at: '2026-11-23T09:00:00Z',
  finished_at: '2026-11-23T10:00:00Z',
  last_error: 'connect ECONNREFUSED 127.0.0.1:25',
  ...fields,
});

describe('JobsPanel', () => {
  it('shows the counts and the failed jobs, and retries a dead one', async () => {
    const user = userEvent.setup();
    const jobs = [
      job(3, { status: 'failed', attempts: 1, kind: 'sessions.purge', last_error: 'Connection terminated' }),
      job(2),
      job(1, { status: 'failed', attempts: 2, kind: 'mail.password-reset', finished_at: null }),
    ];
    fakeApi({
      [`GET ${ADMIN_API.jobs}?status=failed,dead`]: () => ({
        counts: { queued: 0, running: 0, done: 12, failed: 2, dead: 1 },
        results: jobs.filter((j) => j.status === 'failed' || j.status === 'dead'),
      }),
      [`POST ${ADMIN_API.jobRetry.replace(':id', '2')}`]: () => {
        jobs[1] = job(2, { status: 'queued', attempts: 0, finished_at: null });
        return jobs[1];
      },
    });
    renderWithProviders(<JobsPanel />);

    const dead = (await screen.findByRole('heading', { name: /#2 · Activation e-mail/ })).closest('li')!;
    expect(within(dead).getByText('Gave up')).toBeVisible();
    expect(within(dead).getByText(/Attempt 8 of 8/)).toBeVisible();
    expect(within(dead).getByText('connect ECONNREFUSED 127.0.0.1:25')).toBeVisible();
    const failed = screen.getByRole('heading', { name: /#1 · Password reset e-mail/ }).closest('li')!;
    expect(within(failed).getByText('Will retry')).toBeVisible();
    expect(within(failed).getByText(/next try/)).toBeVisible();
    // The hourly purge of ended sessions is named as staff read it, not by its kind.
    expect(screen.getByRole('heading', { name: /#3 · Clean-up of ended sign-ins/ })).toBeVisible();
    expect(screen.getByText('Done (last 7 days)').nextSibling).toHaveTextContent('12');

    await user.click(within(dead).getByRole('button', { name: /Retry.*#2/ }));
    expect(toast.success).toHaveBeenCalledWith('Job #2 will run again now.');
    await expect.poll(() => screen.queryByRole('heading', { name: /#2 ·/ })).toBeNull();
  });

  it('takes a Retry’s failure toast away once it, pressed again, works, and leaves another job’s (decision 150)', async () => {
    const user = userEvent.setup();
    const jobs = [job(3), job(2)];
    let failing = true;
    fakeApi({
      [`GET ${ADMIN_API.jobs}?status=failed,dead`]: () => ({
        counts: { queued: 0, running: 0, done: 0, failed: 0, dead: jobs.length },
        results: jobs,
      }),
      [`POST ${ADMIN_API.jobRetry.replace(':id', '3')}`]: () => jsonResponse(503, null),
      [`POST ${ADMIN_API.jobRetry.replace(':id', '2')}`]: () => {
        if (failing) return jsonResponse(503, null);
        jobs.pop();
        return job(2, { status: 'queued', attempts: 0, finished_at: null });
      },
    });
    vi.mocked(toast.error).mockReturnValueOnce('job 3 failed').mockReturnValueOnce('job 2 failed');
    renderWithProviders(<JobsPanel />);
    await user.click(await screen.findByRole('button', { name: /Retry.*#3/ }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: /Retry.*#2/ }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(2));
    expect(toast.dismiss).not.toHaveBeenCalled();
    failing = false;
    await user.click(screen.getByRole('button', { name: /Retry.*#2/ }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Job #2 will run again now.'));
    expect(toast.dismiss).toHaveBeenCalledExactlyOnceWith('job 2 failed');
  });

  it('keeps the keyboard on Retry while its call runs, a second press sending nothing, then hands it to the next row', async () => {
    const user = userEvent.setup();
    const jobs = [job(3), job(2)];
    let answer = (_response: Response) => {};
    const api = fakeApi({
      [`GET ${ADMIN_API.jobs}?status=failed,dead`]: () => ({
        counts: { queued: 0, running: 0, done: 0, failed: 0, dead: jobs.length },
        results: jobs.filter((j) => j.status === 'dead'),
      }),
      [`POST ${ADMIN_API.jobRetry.replace(':id', '3')}`]: () =>
        new Promise<Response>((resolve) => (answer = resolve)).then((response) => {
          jobs[0] = job(3, { status: 'queued' });
          return response;
        }),
    });
    renderWithProviders(<JobsPanel />);
    const retry = await screen.findByRole('button', { name: /Retry.*#3/ });
    retry.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(retry).toHaveAttribute('aria-disabled', 'true'));
    expect(retry).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.click(retry);
    expect(api.calls.filter(({ method }) => method === 'POST')).toHaveLength(1);

    answer(jsonResponse(200, job(3, { status: 'queued' })));
    await vi.waitFor(() => expect(retry).not.toBeInTheDocument());
    // The row in its place takes the keyboard, not the page's top.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: /Retry.*#2/ })).toHaveFocus());
  });

  it('keeps the keyboard on the last failed job’s Retry when it is refused, and hands it to the page’s heading once it goes', async () => {
    everyElementShown();
    const user = userEvent.setup();
    const jobs = [job(3)];
    const answers: Array<(response: Response) => void> = [];
    fakeApi({
      [`GET ${ADMIN_API.jobs}?status=failed,dead`]: () => ({
        counts: { queued: 0, running: 0, done: 0, failed: 0, dead: jobs.length },
        results: jobs,
      }),
      [`POST ${ADMIN_API.jobRetry.replace(':id', '3')}`]: () =>
        new Promise<Response>((resolve) => answers.push(resolve)).then((response) => {
          if (response.ok) jobs.pop();
          return response;
        }),
    });
    renderWithProviders(
      <main id="main">
        <h1>Staff</h1>
        <JobsPanel />
      </main>,
    );
    const retry = await screen.findByRole('button', { name: /Retry.*#3/ });
    retry.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(retry).toHaveAttribute('aria-disabled', 'true'));
    expect(retry).toHaveFocus();
    answers[0]!(jsonResponse(409, { detail: 'This job is already waiting to run.' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled());
    await vi.waitFor(() => expect(retry).not.toHaveAttribute('aria-disabled', 'true'));
    expect(retry).toHaveFocus();

    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect(retry).toHaveFocus();
    answers[1]!(jsonResponse(200, job(3, { status: 'queued' })));
    expect(await screen.findByText('No failed jobs.')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Staff' })).toHaveFocus());
  });
});
