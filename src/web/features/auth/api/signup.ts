import { API, signupResponseSchema, type SignupRequest } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const signup = (body: SignupRequest) =>
  apiRequest(API.signup, { method: 'POST', body, schema: signupResponseSchema, anonymous: true });
