import type { SignupRequest, SignupResponse } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

/** The contract (with zod) loads with the call, not with the sign-up page. */
export async function signup(body: SignupRequest): Promise<SignupResponse> {
  const { signupResponseSchema } = await import('@shared/contract/auth');
  return apiRequest(API.signup, { method: 'POST', body, schema: signupResponseSchema, anonymous: true });
}
