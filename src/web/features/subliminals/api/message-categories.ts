import type { MessageCategory } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const messageCategoriesQuery = () =>
  queryOptions({
    queryKey: ['message-categories'],
    queryFn: ({ signal }) => apiRequest<MessageCategory[]>(API.messageCategories, { signal }),
  });
