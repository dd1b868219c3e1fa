import { API } from '@shared/contract/paths';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { sessionStore } from '@web/lib/session';

/** Posts the logout in the session whose refresh token is `refresh`; nothing once another tab has ended it. */
const postLogout = async (refresh: string | null) => {
  // Checked as the call goes out (it reads the token then): another tab's new session is not this one to end.
  if (sessionStore.get().refresh === refresh) await apiRequest(API.logout, { method: 'POST', onUnauthorized: 'throw' });
};
const refused = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * Ends on the server the session whose refresh token is `refresh`, the one the person asked to sign out of. A 401
 * whose refresh token is refused too means the session had ended already (logged out in another tab, signed out
 * from another browser, a new password): what logging out asks for is done, so it resolves; so does a session
 * another tab ended (or replaced with a new sign-in) meanwhile. An access token merely old is renewed and the
 * logout posted again.
 */
export async function logout(refresh: string | null): Promise<void> {
  try {
    await postLogout(refresh);
  } catch (error) {
    if (!refused(error)) throw error;
    const { refreshAccessToken } = await import('@web/lib/session-refresh');
    const outcome = await refreshAccessToken(refresh);
    // Ended meanwhile, or replaced by another tab's sign-in: nothing of this session is left to end.
    if (outcome === 'rejected' || outcome === 'replaced') return;
    if (outcome === 'unreachable') throw error;
    // Renewed: this session is alive, and is ended now; refused again, it ended meanwhile.
    await postLogout(refresh).catch((again: unknown) => {
      if (!refused(again)) throw again;
    });
  }
}
