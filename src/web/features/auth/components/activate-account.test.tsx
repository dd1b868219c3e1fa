import { screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AUTH_MESSAGES } from '../messages';
import { ActivateAccount } from './activate-account';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const renderActivation = () =>
  renderWithProviders(<ActivateAccount uid="MQ" token="t" />, {
    path: '/activation/MQ/t',
    pattern: '/activation/:uid/:token',
    routes: [{ path: '/login', element: <p>login page</p> }],
  });

afterEach(() => vi.clearAllMocks());

describe('activation', () => {
  it('says an account opened again from its link is already active, not that verification failed', async () => {
    fakeApi({ [`POST ${API.activation}`]: () => jsonResponse(403, { detail: 'Stale token for given user.' }) });
    renderActivation();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.alreadyActive);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('keeps the spec’s failure for a broken link', async () => {
    fakeApi({ [`POST ${API.activation}`]: () => jsonResponse(400, { token: ['Invalid token for given user.'] }) });
    renderActivation();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(AUTH_MESSAGES.activationFailed);
  });
});
