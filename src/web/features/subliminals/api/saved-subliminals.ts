import { queryOptions } from '@tanstack/react-query';
import type { ExportFormat, SubliminalWrite } from '@shared/contract';
import { shareLinkSchema } from '@shared/contract/own';
import { API, fillPath } from '@shared/contract/paths';
import {
  sharedCopySchema,
  sharedItemSchema,
  subliminalListSchema,
  subliminalSchema,
} from '@shared/contract/subliminals';
import { apiRequest } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';

// Saved subliminals, share links and the export of one's own messages
// (docs/product/api.md#saved-and-shared).

const SAVED_KEY = ['saved-subliminals'];

export const savedSubliminalsQuery = () =>
  queryOptions({
    queryKey: SAVED_KEY,
    queryFn: ({ signal }) => apiRequest(API.subliminals, { schema: subliminalListSchema, signal }),
  });

const one = (id: number) => fillPath(API.subliminal, { id });

export const getSubliminal = (id: number) => apiRequest(one(id), { schema: subliminalSchema });
/** One saved subliminal in full (its share link); reloaded with the list after every change. */
export const savedSubliminalQuery = (id: number) =>
  queryOptions({
    queryKey: [...SAVED_KEY, id],
    queryFn: ({ signal }) => apiRequest(one(id), { schema: subliminalSchema, signal }),
  });
export const createSubliminal = (body: SubliminalWrite) =>
  apiRequest(API.subliminals, { method: 'POST', body, schema: subliminalSchema });
export const updateSubliminal = (id: number, body: SubliminalWrite) =>
  apiRequest(one(id), { method: 'PUT', body, schema: subliminalSchema });
export const deleteSubliminal = (id: number) => apiRequest(one(id), { method: 'DELETE' });

/** Share links: creating answers the link (the same one while shared); deleting ends it at once. */
const shareCalls = (template: string) => ({
  share: (id: number) => apiRequest(fillPath(template, { id }), { method: 'POST', schema: shareLinkSchema }),
  unshare: (id: number) => apiRequest(fillPath(template, { id }), { method: 'DELETE' }),
});
export const subliminalShares = shareCalls(API.subliminalShare);
export const ownCategoryShares = shareCalls(API.myCategoryShare);

/** The export as the server writes it (text, CSV or JSON), to be saved as a file. */
export const exportOwnMessages = (format: ExportFormat) =>
  apiRequest<string>(`${API.myMessagesExport}?format=${format}`, { responseType: 'text' });

const sharedPath = (template: string, token: string) => fillPath(template, { token });

export const sharedItemQuery = (token: string) =>
  queryOptions({
    queryKey: ['shared', token],
    queryFn: ({ signal }) =>
      apiRequest(sharedPath(API.shared, token), { schema: sharedItemSchema, signal, anonymous: true }),
    retry: false,
    // The public view is rate-limited per address: read it once per visit, not on every focus.
    refetchOnWindowFocus: false,
  });
export const copyShared = (token: string) =>
  apiRequest(sharedPath(API.sharedCopy, token), { method: 'POST', schema: sharedCopySchema });

/** Runs a change of the saved subliminals, says how it went, and reloads the list. */
export const useSavedChange = () => useChange(SAVED_KEY);
