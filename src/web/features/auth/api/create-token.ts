import type { TokenCreateRequest, TokenPair } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

/** Login: a new session's token pair. The contract (with zod) loads with the call, not with the page. */
export async function createToken(body: TokenCreateRequest): Promise<TokenPair> {
  const { tokenPairSchema } = await import('@shared/contract/auth');
  return apiRequest(API.tokenCreate, { method: 'POST', body, schema: tokenPairSchema, anonymous: true });
}
