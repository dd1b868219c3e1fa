import { queryOptions } from '@tanstack/react-query';
import type { AdminCategory, MessagesFile, MessagesImportResult } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import { categoryWriteCalls } from '@web/lib/category-calls';
import { useChange } from '@web/lib/change';
import { adminKeys } from './keys';

export const adminCategoriesQuery = () =>
  queryOptions({
    queryKey: adminKeys.categories,
    queryFn: (context) => apiRequest<AdminCategory[]>(ADMIN_API.categories, fromQuery(context)),
    // Read again whenever the tab shows again: what another tab or staff member wrote is there before it is edited here.
    refetchOnWindowFocus: 'always',
  });

export const {
  createCategory,
  renameCategory,
  deleteCategory,
  addMessage,
  editMessage,
  deleteMessage,
  reorderCategories,
  reorderMessages,
} = categoryWriteCalls<AdminCategory>(ADMIN_API);

export const exportMessages = () => apiRequest<MessagesFile>(ADMIN_API.categoriesExport);
export const importMessages = (file: MessagesFile) =>
  apiRequest<MessagesImportResult>(ADMIN_API.categoriesImport, { method: 'POST', body: file });

/** Runs a change of the categories or their messages and reloads the list. */
export const useCategoriesChange = () => useChange(adminKeys.categories);
