import { queryOptions } from '@tanstack/react-query';
import type { MessagesFile } from '@shared/contract';
import {
  ADMIN_API,
  adminCategoryListSchema,
  adminCategorySchema,
  messagesFileSchema,
  messagesImportResultSchema,
} from '@shared/contract/admin';
import { apiRequest } from '@web/lib/api-client';
import { categoryWriteCalls } from '@web/lib/category-calls';
import { useChange } from '@web/lib/change';
import { adminKeys } from './keys';

export const adminCategoriesQuery = () =>
  queryOptions({
    queryKey: adminKeys.categories,
    queryFn: ({ signal }) => apiRequest(ADMIN_API.categories, { schema: adminCategoryListSchema, signal }),
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
} = categoryWriteCalls(ADMIN_API, adminCategorySchema, adminCategoryListSchema);

export const exportMessages = () => apiRequest(ADMIN_API.categoriesExport, { schema: messagesFileSchema });
export const importMessages = (file: MessagesFile) =>
  apiRequest(ADMIN_API.categoriesImport, { method: 'POST', body: file, schema: messagesImportResultSchema });

/** Runs a change of the categories or their messages and reloads the list. */
export const useCategoriesChange = () => useChange(adminKeys.categories);
