import { currentUserSchema } from '@shared/contract/auth';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const fetchCurrentUser = () => apiRequest(API.me, { schema: currentUserSchema });
