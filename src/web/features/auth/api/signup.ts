import type { SignupRequest, SignupResponse } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const signup = (body: SignupRequest) =>
  apiRequest<SignupResponse>(API.signup, { method: 'POST', body, anonymous: true });
