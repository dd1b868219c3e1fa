import { useMutation } from '@tanstack/react-query';
import type { SupportRequestWrite } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { supportRequestReceiptSchema } from '@shared/contract/support';
import { apiRequest } from '@web/lib/api-client';

export const sendSupportRequest = (body: SupportRequestWrite) =>
  apiRequest(API.support, { method: 'POST', body, schema: supportRequestReceiptSchema });

export const useSendSupportRequest = () => useMutation({ mutationFn: sendSupportRequest });
