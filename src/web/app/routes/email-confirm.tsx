import { useParams } from 'react-router';
import { ConfirmEmailChange } from '@web/features/auth/components/confirm-email-change';

export function Component() {
  const { uid = '', token = '' } = useParams();
  return <ConfirmEmailChange key={`${uid}/${token}`} uid={uid} token={token} />;
}
