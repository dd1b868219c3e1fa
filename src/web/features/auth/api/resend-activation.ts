import type { ResendActivationRequest } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

/** Always 204: the server says nothing about whether the address has an account waiting. */
export const resendActivation = (body: ResendActivationRequest) =>
  apiRequest(API.resendActivation, { method: 'POST', body, anonymous: true });
