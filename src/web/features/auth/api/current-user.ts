import type { CurrentUser } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const fetchCurrentUser = () => apiRequest<CurrentUser>(API.me);
