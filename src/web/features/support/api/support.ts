import { useMutation } from '@tanstack/react-query';
import type { SupportRequestReceipt, SupportRequestWrite } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

export const sendSupportRequest = (body: SupportRequestWrite) =>
  apiRequest<SupportRequestReceipt>(API.support, { method: 'POST', body });

export const useSendSupportRequest = () => useMutation({ mutationFn: sendSupportRequest });
