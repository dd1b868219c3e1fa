import { API, tokenPairSchema, type TokenCreateRequest } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

/** Login: a new session's token pair. */
export const createToken = (body: TokenCreateRequest) =>
  apiRequest(API.tokenCreate, { method: 'POST', body, schema: tokenPairSchema, anonymous: true });
