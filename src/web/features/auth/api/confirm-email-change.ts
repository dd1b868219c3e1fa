import type { SetEmailConfirmRequest } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const confirmEmailChange = (body: SetEmailConfirmRequest) =>
  apiRequest(API.setEmailConfirm, { method: 'POST', body, anonymous: true });
