import type { TokenCreateRequest, TokenPair } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

/** Login: a new session's token pair. */
export const createToken = (body: TokenCreateRequest) =>
  apiRequest<TokenPair>(API.tokenCreate, { method: 'POST', body, anonymous: true });
