import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button } from '@web/components/ui/button';
import { ApiError } from '@web/lib/api-client';
import { resendActivation } from '../api/resend-activation';
import { AUTH_MESSAGES } from '../messages';

/** Asks for a new activation link; the answer is the same whether or not the address has an account waiting. */
export function ResendActivationButton({
  email,
  variant = 'secondary',
}: {
  email: string;
  variant?: 'primary' | 'secondary';
}) {
  const mutation = useMutation({
    mutationFn: () => resendActivation({ email }),
    onSuccess: () => toast.success(AUTH_MESSAGES.resendSent),
    onError: (error) =>
      toast.error(
        error instanceof TypeError
          ? AUTH_MESSAGES.offline
          : error instanceof ApiError && error.status === 429
            ? AUTH_MESSAGES.throttled
            : AUTH_MESSAGES.resendFailed,
      ),
  });
  return (
    <Button type="button" variant={variant} onClick={() => mutation.mutate()} disabled={mutation.isPending || !email}>
      {mutation.isPending ? 'Sending…' : 'Resend the activation link'}
    </Button>
  );
}
