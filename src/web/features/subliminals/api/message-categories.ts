import { queryOptions } from '@tanstack/react-query';
import { messageCategoryListSchema } from '@shared/contract/content';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const messageCategoriesQuery = () =>
  queryOptions({
    queryKey: ['message-categories'],
    queryFn: ({ signal }) => apiRequest(API.messageCategories, { schema: messageCategoryListSchema, signal }),
  });
