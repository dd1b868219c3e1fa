import { API, type SetEmailConfirmRequest } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const confirmEmailChange = (body: SetEmailConfirmRequest) =>
  apiRequest(API.setEmailConfirm, { method: 'POST', body, anonymous: true });
