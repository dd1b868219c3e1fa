import { queryOptions } from '@tanstack/react-query';
import { API, messageCategoryListSchema } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const messageCategoriesQuery = () =>
  queryOptions({
    queryKey: ['message-categories'],
    queryFn: ({ signal }) => apiRequest(API.messageCategories, { schema: messageCategoryListSchema, signal }),
  });
