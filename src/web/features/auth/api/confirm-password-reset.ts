import type { ResetPasswordConfirmRequest } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const confirmPasswordReset = (body: ResetPasswordConfirmRequest) =>
  apiRequest(API.resetPasswordConfirm, { method: 'POST', body, anonymous: true });
