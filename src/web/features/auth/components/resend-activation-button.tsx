import { useState } from 'react';
import { Button } from '@web/components/ui/button';
import { ApiError } from '@web/lib/api-client';
import { failureOver, notify } from '@web/lib/toast';
import { resendActivation } from '../api/resend-activation';
import { AUTH_MESSAGES } from '../messages';

const RESEND = 'resend activation';

/**
 * Asks for a new activation link; the answer is the same whether or not the address has an account
 * waiting. `redirect`: the share page the new link leads back to, as the sign-up's did.
 */
export function ResendActivationButton({
  email,
  redirect = null,
  variant = 'secondary',
}: {
  email: string;
  redirect?: string | null;
  variant?: 'primary' | 'secondary';
}) {
  const [pending, setPending] = useState(false);
  const resend = async () => {
    setPending(true);
    try {
      await resendActivation({ email, ...(redirect ? { redirect } : {}) });
      // Sent on a press again, the earlier failure's toast goes (decision 150).
      failureOver(RESEND);
      notify.success(AUTH_MESSAGES.resendSent);
    } catch (error) {
      notify.error(
        error instanceof TypeError
          ? AUTH_MESSAGES.offline
          : error instanceof ApiError && error.status === 429
            ? AUTH_MESSAGES.throttled
            : AUTH_MESSAGES.resendFailed,
        RESEND,
      );
    } finally {
      setPending(false);
    }
  };
  return (
    <Button type="button" variant={variant} onClick={() => void resend()} busy={pending} disabled={!email}>
      {pending ? 'Sending…' : 'Resend the activation link'}
    </Button>
  );
}
