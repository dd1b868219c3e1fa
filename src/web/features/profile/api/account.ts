import { queryOptions } from '@tanstack/react-query';
import type {
  DeleteAccountRequest,
  EmailChangeStatus,
  OtherSessions,
  Profile,
  SetEmailRequest,
  SetPasswordRequest,
  SignOutOthersRequest,
  SignOutOthersResponse,
} from '@shared/contract';
import { SESSIONS_ENDED_HEADER } from '@shared/contract/plain';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { withKnownPlan } from './profile';

// The account calls of the profile screen (docs/product/accounts.md#self-service).

/**
 * Answers how many other sessions the change ended, by the header of its 204; null from a server that does not say
 * (a djoser backend, decisions.md §3).
 */
export async function changePassword(body: SetPasswordRequest): Promise<number | null> {
  let ended: number | null = null;
  await apiRequest(API.setPassword, {
    method: 'POST',
    body,
    onHeaders: (header) => {
      const said = header(SESSIONS_ENDED_HEADER);
      ended = said !== null && /^\d+$/.test(said) ? Number(said) : null;
    },
  });
  return ended;
}

export const requestEmailChange = (body: SetEmailRequest) => apiRequest(API.setEmail, { method: 'POST', body });

/** The key of every read of the waiting change, whatever the address it was read under. */
export const EMAIL_CHANGE_KEY = ['account', 'email-change'] as const;

/**
 * The change of address waiting for its link, asked again whenever the tab shows and whenever the account's
 * address differs (`email`, the profile's): the link is most often opened in another tab or on the phone, which
 * ends the wait.
 */
export const emailChangeQuery = (email: string) =>
  queryOptions({
    queryKey: [...EMAIL_CHANGE_KEY, email],
    refetchOnWindowFocus: 'always',
    queryFn: (context) => apiRequest<EmailChangeStatus>(API.setEmail, fromQuery(context)),
  });

/** Mails a new link for the waiting change; earlier links of it keep working. */
export const resendEmailChange = () => apiRequest(API.setEmailResend, { method: 'POST' });

/** Takes the waiting change back: its links are refused from then on. */
export const cancelEmailChange = () => apiRequest(API.setEmail, { method: 'DELETE' });

/** The person's other live sessions, asked again whenever the tab shows (one may have signed in elsewhere). */
export const otherSessionsQuery = () =>
  queryOptions({
    queryKey: ['sessions', 'others'],
    refetchOnWindowFocus: 'always',
    queryFn: (context) => apiRequest<OtherSessions>(API.sessions, fromQuery(context)),
  });

/** Ends every other session of the person; this one stays signed in. */
export const signOutOthers = (body: SignOutOthersRequest) =>
  apiRequest<SignOutOthersResponse>(API.logoutOthers, { method: 'POST', body });

export const deleteAccount = (body: DeleteAccountRequest) => apiRequest(API.me, { method: 'DELETE', body });

export const removeProfileImage = (): Promise<Profile> =>
  apiRequest<Profile>(API.profileImage, { method: 'DELETE' }).then(withKnownPlan);

/**
 * Saves the export as `innerwave-data-<date>.json`, the name the server gives it too: the bytes as the server sent
 * them (laid out to be read), neither parsed nor held as one string, since a person's data may be large.
 */
export async function downloadExport(): Promise<void> {
  const data = await apiRequest<Blob>(API.userExport, { responseType: 'blob' });
  const url = URL.createObjectURL(data);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `innerwave-data-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
