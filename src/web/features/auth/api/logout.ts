import { API } from '@shared/contract/paths';
import { ApiError, apiRequest } from '@web/lib/api-client';

const postLogout = () => apiRequest(API.logout, { method: 'POST', onUnauthorized: 'throw' });
const refused = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * Ends this session on the server. A 401 whose refresh token is refused too means the session had ended
 * already (logged out in another tab, signed out from another browser, a new password): what logging out
 * asks for is done, so it resolves. An access token merely old is renewed and the logout posted again.
 */
export async function logout(): Promise<void> {
  try {
    await postLogout();
  } catch (error) {
    if (!refused(error)) throw error;
    const { refreshAccessToken } = await import('@web/lib/session-refresh');
    const outcome = await refreshAccessToken();
    // Ended meanwhile, or replaced by another tab's sign-in: nothing of this session is left to end.
    if (outcome === 'rejected' || outcome === 'replaced') return;
    if (outcome === 'unreachable') throw error;
    // Renewed: this session is alive, and is ended now; refused again, it ended meanwhile.
    await postLogout().catch((again: unknown) => {
      if (!refused(again)) throw again;
    });
  }
}
