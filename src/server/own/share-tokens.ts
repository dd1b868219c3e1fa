import { randomBytes } from 'node:crypto';
import { fillPath, SHARED_PAGE, type ShareLink } from '@shared/contract';

// Share links (docs/product/api.md#saved-and-shared): a token of 128 random bits names the shared
// thing; a new share makes a new token, and revoking clears it, so an old link stays dead.

export const newShareToken = () => randomBytes(16).toString('base64url');

/** The link of a token, or null when there is none (the thing is not shared). */
export const shareLinkOf = (publicUrl: string, token: string | null): ShareLink | null =>
  token === null ? null : { token, url: `${publicUrl}${fillPath(SHARED_PAGE, { token })}` };
