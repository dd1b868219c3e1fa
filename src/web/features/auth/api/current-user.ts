import { API, currentUserSchema } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const fetchCurrentUser = () => apiRequest(API.me, { schema: currentUserSchema });
