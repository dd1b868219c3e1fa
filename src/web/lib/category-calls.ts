import { fillPath } from '@shared/contract/paths';
import { apiRequest } from './api-client';

/** The paths of a set of categories with messages: the library's (staff) or one's own. */
type CategoryPaths = {
  categories: string;
  categoriesOrder: string;
  category: string;
  categoryMessages: string;
  categoryMessagesOrder: string;
  message: string;
};

/**
 * The write calls both sets share, alike but for their paths and answer: each change of a message
 * answers its whole category, a new order of the categories all of them.
 */
export function categoryWriteCalls<Category>(paths: CategoryPaths) {
  const write = (path: string, method: 'POST' | 'PATCH', body: Record<string, string>) =>
    apiRequest<Category>(path, { method, body });
  return {
    createCategory: (name: string) => write(paths.categories, 'POST', { name }),
    /** With the name the rename began from, where the server refuses a rename of a category renamed meanwhile (staff's). */
    renameCategory: (id: number, name: string, previousName?: string) =>
      write(fillPath(paths.category, { id }), 'PATCH', {
        name,
        ...(previousName !== undefined && { previous_name: previousName }),
      }),
    deleteCategory: (id: number) => apiRequest(fillPath(paths.category, { id }), { method: 'DELETE' }),
    addMessage: (categoryId: number, text: string) =>
      write(fillPath(paths.categoryMessages, { id: categoryId }), 'POST', { message_text: text }),
    /** With the text the edit began from, where the server refuses an edit of a message changed meanwhile (one's own, the library's). */
    editMessage: (id: number, text: string, previousText?: string) =>
      write(fillPath(paths.message, { id }), 'PATCH', {
        message_text: text,
        ...(previousText !== undefined && { previous_text: previousText }),
      }),
    deleteMessage: (id: number) => apiRequest(fillPath(paths.message, { id }), { method: 'DELETE' }),
    /** A new order of all the categories; answers them in it. */
    reorderCategories: (ids: number[]) =>
      apiRequest<Category[]>(paths.categoriesOrder, { method: 'PUT', body: { ids } }),
    /** A new order of all of a category's messages; answers the category. */
    reorderMessages: (categoryId: number, ids: number[]) =>
      apiRequest<Category>(fillPath(paths.categoryMessagesOrder, { id: categoryId }), { method: 'PUT', body: { ids } }),
  };
}
