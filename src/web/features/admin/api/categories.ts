import { queryOptions } from '@tanstack/react-query';
import {
  ADMIN_API,
  adminCategoryListSchema,
  adminCategorySchema,
  adminPath,
  messagesFileSchema,
  messagesImportResultSchema,
  type MessagesFile,
} from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';
import { categoryWriteCalls } from '@web/lib/category-calls';
import { useChange } from '@web/lib/change';
import { adminKeys } from './keys';

export const adminCategoriesQuery = () =>
  queryOptions({
    queryKey: adminKeys.categories,
    queryFn: ({ signal }) => apiRequest(ADMIN_API.categories, { schema: adminCategoryListSchema, signal }),
  });

export const { createCategory, renameCategory, deleteCategory, addMessage, editMessage, deleteMessage } =
  categoryWriteCalls(ADMIN_API, adminCategorySchema);
export const reorderCategories = (ids: number[]) =>
  apiRequest(ADMIN_API.categoriesOrder, { method: 'PUT', body: { ids }, schema: adminCategoryListSchema });
export const reorderMessages = (categoryId: number, ids: number[]) =>
  apiRequest(adminPath(ADMIN_API.categoryMessagesOrder, { id: categoryId }), {
    method: 'PUT',
    body: { ids },
    schema: adminCategorySchema,
  });

export const exportMessages = () => apiRequest(ADMIN_API.categoriesExport, { schema: messagesFileSchema });
export const importMessages = (file: MessagesFile) =>
  apiRequest(ADMIN_API.categoriesImport, { method: 'POST', body: file, schema: messagesImportResultSchema });

/** Runs a change of the categories or their messages and reloads the list. */
export const useCategoriesChange = () => useChange(adminKeys.categories);
