import { queryOptions } from '@tanstack/react-query';
import type {
  DeleteAccountRequest,
  OtherSessions,
  Profile,
  SetEmailRequest,
  SetPasswordRequest,
  SignOutOthersRequest,
  SignOutOthersResponse,
} from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';
import { withKnownPlan } from './profile';

// The account calls of the profile screen (docs/product/accounts.md#self-service).

export const changePassword = (body: SetPasswordRequest) => apiRequest(API.setPassword, { method: 'POST', body });

export const requestEmailChange = (body: SetEmailRequest) => apiRequest(API.setEmail, { method: 'POST', body });

/** The person's other live sessions, asked again whenever the tab shows (one may have signed in elsewhere). */
export const otherSessionsQuery = () =>
  queryOptions({
    queryKey: ['sessions', 'others'],
    refetchOnWindowFocus: 'always',
    queryFn: ({ signal }) => apiRequest<OtherSessions>(API.sessions, { signal }),
  });

/** Ends every other session of the person; this one stays signed in. */
export const signOutOthers = (body: SignOutOthersRequest) =>
  apiRequest<SignOutOthersResponse>(API.logoutOthers, { method: 'POST', body });

export const deleteAccount = (body: DeleteAccountRequest) => apiRequest(API.me, { method: 'DELETE', body });

export const removeProfileImage = (): Promise<Profile> =>
  apiRequest<Profile>(API.profileImage, { method: 'DELETE' }).then(withKnownPlan);

/**
 * Saves the export as `innerwave-data-<date>.json`, the name the server gives it too. Not parsed
 * against the contract: the file is the person's data as the server sent it, sections it adds included.
 */
export async function downloadExport(): Promise<void> {
  const data = await apiRequest<unknown>(API.userExport);
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
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
