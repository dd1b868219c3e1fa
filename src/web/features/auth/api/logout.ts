import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

/** Ends this session on the server; a 401 is the caller's to handle (the session may be gone already). */
export const logout = () => apiRequest(API.logout, { method: 'POST', onUnauthorized: 'throw' });
