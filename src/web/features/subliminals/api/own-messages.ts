import { queryOptions } from '@tanstack/react-query';
import { API, fillPath, ownCategoryListSchema, ownCategorySchema } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';
import { useChange } from '@web/lib/change';

const OWN_CATEGORIES_KEY = ['own-categories'];

export const ownCategoriesQuery = () =>
  queryOptions({
    queryKey: OWN_CATEGORIES_KEY,
    queryFn: ({ signal }) => apiRequest(API.myCategories, { schema: ownCategoryListSchema, signal }),
  });

export const createOwnCategory = (name: string) =>
  apiRequest(API.myCategories, { method: 'POST', body: { name }, schema: ownCategorySchema });
export const renameOwnCategory = (id: number, name: string) =>
  apiRequest(fillPath(API.myCategory, { id }), { method: 'PATCH', body: { name }, schema: ownCategorySchema });
export const deleteOwnCategory = (id: number) => apiRequest(fillPath(API.myCategory, { id }), { method: 'DELETE' });
export const addOwnMessage = (categoryId: number, text: string) =>
  apiRequest(fillPath(API.myCategoryMessages, { id: categoryId }), {
    method: 'POST',
    body: { message_text: text },
    schema: ownCategorySchema,
  });
export const editOwnMessage = (id: number, text: string) =>
  apiRequest(fillPath(API.myMessage, { id }), {
    method: 'PATCH',
    body: { message_text: text },
    schema: ownCategorySchema,
  });
export const deleteOwnMessage = (id: number) => apiRequest(fillPath(API.myMessage, { id }), { method: 'DELETE' });

/** Runs a change of one's own messages, says how it went, and reloads them. */
export const useOwnMessagesChange = () => useChange(OWN_CATEGORIES_KEY);
