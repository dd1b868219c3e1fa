import type { ActivationRequest } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const activateAccount = (body: ActivationRequest) =>
  apiRequest(API.activation, { method: 'POST', body, anonymous: true });
