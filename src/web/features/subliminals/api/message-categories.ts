import type { MessageCategory } from '@shared/contract';
import { queryOptions } from '@tanstack/react-query';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery } from '@web/lib/api-client';

export const messageCategoriesQuery = () =>
  queryOptions({
    queryKey: ['message-categories'],
    queryFn: (context) => apiRequest<MessageCategory[]>(API.messageCategories, fromQuery(context)),
  });
