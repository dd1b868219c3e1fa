import type { OwnCategory } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { categoryWriteCalls } from '@web/lib/category-calls';
import { useChange } from '@web/lib/change';

const OWN_CATEGORIES_KEY = ['own-categories'];

export const ownCategoriesQuery = () =>
  queryOptions({
    queryKey: OWN_CATEGORIES_KEY,
    queryFn: (context) => apiRequest<OwnCategory[]>(API.myCategories, fromQuery(context)),
    // Read again whenever the tab shows again: what was written in another tab is there before it is edited here.
    refetchOnWindowFocus: 'always',
  });

export const ownMessagesCalls = categoryWriteCalls<OwnCategory>({
  categories: API.myCategories,
  categoriesOrder: API.myCategoriesOrder,
  category: API.myCategory,
  categoryMessages: API.myCategoryMessages,
  categoryMessagesOrder: API.myCategoryMessagesOrder,
  message: API.myMessage,
});

/** Runs a change of one's own messages, says how it went, and reloads them. */
export const useOwnMessagesChange = () => useChange(OWN_CATEGORIES_KEY);
