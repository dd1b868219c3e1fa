import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import { API } from '@shared/contract/paths';
import { DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import { SUPPORT_MESSAGE_MAX } from '@shared/contract/support';
import { sessionStore } from '@web/lib/session';
import { startSessionLifecycle } from '@web/lib/session-refresh';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders, type ApiHandler } from '@web/test/render';
import { SupportForm } from './support-form';

function server(plan: SubscriptionPlan, support: ApiHandler) {
  return fakeApi({ [`GET ${API.plan}`]: () => planStateFor(plan), [`POST ${API.support}`]: support });
}

async function fill(subject: string, message: string, copy = false) {
  const user = userEvent.setup();
  if (subject) await user.type(screen.getByLabelText('Subject'), subject);
  if (message) await user.type(screen.getByLabelText('Message'), message);
  if (copy) await user.click(screen.getByLabelText('Send me a copy by e-mail'));
  await user.click(screen.getByRole('button', { name: 'Send request' }));
  return user;
}

const jwtWith = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.s`;

afterEach(() => {
  sessionStore.clear();
  sessionStorage.clear();
});

describe('SupportForm', () => {
  it('opened by "Ask for <plan>" holds that request, filled in to send, and sends it as shown', async () => {
    const api = server('basic', () =>
      jsonResponse(201, { id: 7, created_at: '2026-12-07T10:00:00Z', priority: false }),
    );
    renderWithProviders(<SupportForm />, { path: '/support?plan=intermediate', pattern: '/support' });
    expect(await screen.findByLabelText('Subject')).toHaveValue('Please move me to Intermediate');
    expect(screen.getByLabelText('Message')).toHaveValue(
      'I would like the Intermediate plan. Please move my account to it.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Thanks — your request #7 reached us.')).toBeVisible();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      subject: 'Please move me to Intermediate',
    });
  });

  it('fills in nothing for a plan that cannot be asked for', async () => {
    server('basic', () => jsonResponse(201, {}));
    renderWithProviders(<SupportForm />, { path: '/support?plan=basic', pattern: '/support' });
    expect(await screen.findByLabelText('Subject')).toHaveValue('');
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it('sends the request and says its number and when to expect an answer', async () => {
    const api = server('basic', () =>
      jsonResponse(201, { id: 42, created_at: '2026-11-23T10:00:00Z', priority: false }),
    );
    renderWithProviders(<SupportForm />);
    expect(await screen.findByText(/Requests of the Intermediate and Pro plans are answered first/)).toBeVisible();
    const user = await fill('Sound stops', 'After two minutes.', true);

    expect(await screen.findByRole('heading', { name: 'Thanks — your request #42 reached us.' })).toBeVisible();
    expect(screen.getByText(/We answer within 48 business hours/)).toBeVisible();
    expect(screen.getByText('A copy is on its way to your e-mail.')).toBeVisible();
    expect(screen.queryByText(/answered first/)).toBeNull();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      subject: 'Sound stops',
      message: 'After two minutes.',
      send_copy: true,
    });

    await user.click(screen.getByRole('button', { name: 'Send another request' }));
    expect(screen.getByLabelText('Subject')).toHaveValue('');
  });

  it('tells a paid plan that its requests are answered first', async () => {
    server('intermediate', () => jsonResponse(201, { id: 7, created_at: '2026-11-23T10:00:00Z', priority: true }));
    renderWithProviders(<SupportForm />);
    expect(
      await screen.findByText(/Your plan includes priority support: your requests are answered first/),
    ).toBeVisible();
    await fill('Help', 'Please');
    expect(
      await screen.findByText('Your plan includes priority support: your request is answered first.'),
    ).toBeVisible();
    expect(screen.queryByText('A copy is on its way to your e-mail.')).toBeNull();
  });

  it('checks the fields before sending', async () => {
    const api = server('basic', () => jsonResponse(201, {}));
    renderWithProviders(<SupportForm />);
    await fill('', '');
    expect(await screen.findAllByText('This field may not be blank.')).toHaveLength(2);
    expect(screen.getByLabelText('Subject')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('says at the field, without sending, that a subject or message holds a direction control inside', async () => {
    const api = server('basic', () => jsonResponse(201, {}));
    renderWithProviders(<SupportForm />);
    await fill('Billing \u202eplease', 'It says \u2067twice\u2069 here');
    expect(await screen.findAllByText(DIRECTION_CONTROL_REFUSED)).toHaveLength(2);
    expect(screen.getByLabelText('Message')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('shows the server’s field errors under their fields', async () => {
    server('basic', () => jsonResponse(400, { message: ['Ensure this field has no more than 5,000 characters.'] }));
    renderWithProviders(<SupportForm />);
    await fill('Long', 'Too long for the server');
    expect(await screen.findByText('Ensure this field has no more than 5,000 characters.')).toBeVisible();
    expect(screen.getByLabelText('Message')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Message')).toHaveValue('Too long for the server');
  });

  it('counts as the server does and keeps a text over the limit whole, saying so instead of sending it', async () => {
    const api = server('basic', () =>
      jsonResponse(201, { id: 9, created_at: '2026-11-23T10:00:00Z', priority: false }),
    );
    renderWithProviders(<SupportForm />);
    const user = userEvent.setup();
    const message = screen.getByLabelText('Message');
    await user.type(screen.getByLabelText('Subject'), '🌙 Moons');
    await user.click(message);
    await user.paste('x'.repeat(SUPPORT_MESSAGE_MAX + 1));
    expect(message).toHaveValue('x'.repeat(SUPPORT_MESSAGE_MAX + 1));
    expect(screen.getByText('5,001 / 5,000')).toHaveClass('text-danger');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Ensure this field has no more than 5,000 characters.')).toBeVisible();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);

    // An emoji is one character to the server: the whole limit of them is taken, not half.
    await user.clear(message);
    await user.paste('🌙'.repeat(SUPPORT_MESSAGE_MAX));
    expect(screen.getByText('5,000 / 5,000')).not.toHaveClass('text-danger');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('heading', { name: 'Thanks — your request #9 reached us.' })).toBeVisible();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      message: '🌙'.repeat(SUPPORT_MESSAGE_MAX),
    });
  });

  it('ties an error of the copy checkbox to it, as the other fields’ are to theirs', async () => {
    server('basic', () => jsonResponse(400, { send_copy: ['Must be a valid boolean.'] }));
    renderWithProviders(<SupportForm />);
    await fill('Copy', 'Please send me a copy', true);
    const checkbox = screen.getByLabelText('Send me a copy by e-mail');
    await expect.poll(() => checkbox.getAttribute('aria-invalid')).toBe('true');
    expect(checkbox).toHaveAccessibleDescription('Must be a valid boolean.');
  });

  it('says why when the limit is reached, keeping what was typed', async () => {
    const detail =
      'You have sent 5 support requests in the last hour. You can send another in 12 minutes; we have the ones you sent.';
    server('basic', () => jsonResponse(429, { detail }));
    renderWithProviders(<SupportForm />);
    await fill('Again', 'One more');
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(screen.getByLabelText('Subject')).toHaveValue('Again');
  });

  /** The session ends as the request is sent: the send and the refresh are refused; returns where it navigates. */
  function sessionEndsAtSend() {
    const refused = () => jsonResponse(401, { detail: 'Given token not valid for any token type' });
    const navigateTo = vi.fn<(to: string) => void>();
    startSessionLifecycle(navigateTo)();
    fakeApi({
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`POST ${API.support}`]: refused,
      [`POST ${API.tokenRefresh}`]: refused,
    });
    return navigateTo;
  }

  it('gives the request typed back after the session ended and its person logged in again, and to no one else', async () => {
    const navigateTo = sessionEndsAtSend();
    sessionStore.setTokens({ access: jwtWith({ user_id: 5 }), refresh: 'r' }, 'ada@example.com');
    const first = renderWithProviders(<SupportForm />);
    await fill('Sound stops', 'After two minutes.', true);
    await vi.waitFor(() => expect(navigateTo).toHaveBeenCalled());
    expect(sessionStore.get().isAuthenticated).toBe(false);
    first.unmount();

    // Someone else logs in in the tab: nothing of Ada's.
    sessionStore.setTokens({ access: jwtWith({ user_id: 6 }), refresh: 'r2' }, 'bea@example.com');
    const second = renderWithProviders(<SupportForm />);
    expect(screen.getByLabelText('Subject')).toHaveValue('');
    expect(screen.queryByText(/What you wrote before is back/)).toBeNull();
    second.unmount();

    sessionStore.setTokens({ access: jwtWith({ user_id: 5 }), refresh: 'r3' }, 'ada@example.com');
    server('basic', () => jsonResponse(201, { id: 3, created_at: '2026-11-23T10:00:00Z', priority: false }));
    renderWithProviders(<SupportForm />);
    expect(screen.getByText('What you wrote before is back. It has not been sent yet.')).toBeVisible();
    expect(screen.getByLabelText('Subject')).toHaveValue('Sound stops');
    expect(screen.getByLabelText('Message')).toHaveValue('After two minutes.');
    expect(screen.getByLabelText('Send me a copy by e-mail')).toBeChecked();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('heading', { name: 'Thanks — your request #3 reached us.' })).toBeVisible();
    // Sent: not given back again.
    expect(sessionStorage.length).toBe(0);
  });

  it('says nothing of its own when the session was ended from another browser: that goes to login', async () => {
    const navigateTo = sessionEndsAtSend();
    renderWithProviders(<SupportForm />);
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    await fill('Sound stops', 'After two minutes.');
    await vi.waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/login'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
