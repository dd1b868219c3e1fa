import { queryOptions } from '@tanstack/react-query';
import type {
  SharedCopyRequest,
  ExportFormat,
  SavedSubliminal,
  ShareLink,
  SharedCopy,
  Subliminal,
  SubliminalSummary,
  SubliminalWrite,
} from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';

// Saved subliminals, share links and the export of one's own messages
// (docs/product/api.md#saved-and-shared).

const SAVED_KEY = ['saved-subliminals'];

export const savedSubliminalsQuery = () =>
  queryOptions({
    queryKey: SAVED_KEY,
    queryFn: (context) => apiRequest<SubliminalSummary[]>(API.subliminals, fromQuery(context)),
  });

const one = (id: number) => fillPath(API.subliminal, { id });

export const getSubliminal = (id: number) => apiRequest<Subliminal>(one(id));
/** One saved subliminal in full (its share link); reloaded with the list after every change. */
export const savedSubliminalQuery = (id: number) =>
  queryOptions({
    queryKey: [...SAVED_KEY, id],
    queryFn: (context) => apiRequest<Subliminal>(one(id), fromQuery(context)),
  });
/** A save answers what it left out of the sound too (`gone_tracks`, docs/product/api.md#saved-and-shared). */
export const createSubliminal = (body: SubliminalWrite) =>
  apiRequest<SavedSubliminal>(API.subliminals, { method: 'POST', body });
export const updateSubliminal = (id: number, body: SubliminalWrite) =>
  apiRequest<SavedSubliminal>(one(id), { method: 'PUT', body });
export const deleteSubliminal = (id: number) => apiRequest(one(id), { method: 'DELETE' });

/** Share links: creating answers the link (the same one while shared); deleting ends it at once. */
const shareCalls = (template: string) => ({
  share: (id: number) => apiRequest<ShareLink>(fillPath(template, { id }), { method: 'POST' }),
  unshare: (id: number) => apiRequest(fillPath(template, { id }), { method: 'DELETE' }),
});
export const subliminalShares = shareCalls(API.subliminalShare);
export const ownCategoryShares = shareCalls(API.myCategoryShare);

/** The export as the server writes it (text, CSV or JSON), to be saved as a file. */
export const exportOwnMessages = (format: ExportFormat) =>
  apiRequest<string>(`${API.myMessagesExport}?format=${format}`, { responseType: 'text' });

/** Copies a share link's item; `copyKey` names the press, so that sending it again makes no second copy. */
export const copyShared = (token: string, copyKey: string) =>
  apiRequest<SharedCopy>(fillPath(API.sharedCopy, { token }), {
    method: 'POST',
    body: { copy_key: copyKey } satisfies SharedCopyRequest,
  });

/** Runs a change of the saved subliminals, says how it went, and reloads the list. */
export const useSavedChange = () => useChange(SAVED_KEY);
