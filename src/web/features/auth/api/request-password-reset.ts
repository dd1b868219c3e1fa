import type { ResetPasswordRequest } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const requestPasswordReset = (body: ResetPasswordRequest) =>
  apiRequest(API.resetPassword, { method: 'POST', body, anonymous: true });
