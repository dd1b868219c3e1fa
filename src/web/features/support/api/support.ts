import { useMutation } from '@tanstack/react-query';
import { API, supportRequestReceiptSchema, type SupportRequestWrite } from '@shared/contract';
import { apiRequest } from '@web/lib/api-client';

export const sendSupportRequest = (body: SupportRequestWrite) =>
  apiRequest(API.support, { method: 'POST', body, schema: supportRequestReceiptSchema });

export const useSendSupportRequest = () => useMutation({ mutationFn: sendSupportRequest });
