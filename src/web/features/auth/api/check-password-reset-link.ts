import type { ResetPasswordCheckRequest } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const checkPasswordResetLink = (body: ResetPasswordCheckRequest) =>
  apiRequest(API.resetPasswordCheck, { method: 'POST', body, anonymous: true });
