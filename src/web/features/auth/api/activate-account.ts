import { API, type ActivationRequest } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const activateAccount = (body: ActivationRequest) =>
  apiRequest(API.activation, { method: 'POST', body, anonymous: true });
